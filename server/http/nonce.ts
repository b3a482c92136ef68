// CSP nonces: 128 random bits each, base64. The random bytes are drawn from the CSPRNG a few
// kilobytes at a time and handed out 16 bytes apiece, each exactly once, which costs far less
// than one randomBytes() call per request.
import { randomFillSync } from 'node:crypto';

const NONCE_BYTES = 16;

export function createNonceSource(batch = 256): () => string {
  const pool = Buffer.alloc(NONCE_BYTES * batch);
  let offset = pool.length;
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const nonce = pool.toString('base64', offset, offset + NONCE_BYTES);
    offset += NONCE_BYTES;
    return nonce;
  };
}

import { hkdfSync } from 'node:crypto';

/** A key for one purpose derived from SESSION_SECRET (HKDF-SHA256), so one secret serves all. */
export function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'the-product', purpose, 32)).toString('base64url');
}

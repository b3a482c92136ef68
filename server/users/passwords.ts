// Password hashing with scrypt (memory-hard), a per-user salt and a timing-safe comparison.
// Stored as `scrypt$N$r$p$salt$hash` so that parameters can be raised later.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The cost of new hashes; a stored hash keeps the cost it was made with, which verification reads. */
export type PasswordCost = { N: number; r: number; p: number };
const COST: PasswordCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * Derivations run one at a time, in the order asked: each holds 128·N·r bytes (32 MiB) outside
 * the heap and a core for its duration, so a burst of anything that checks a password (sign-ins,
 * e-mail changes) costs one derivation's memory and leaves the other core and the rest of the
 * thread pool (compression, files) to everyone else. Forty at once took the process from 250 to
 * 380 MiB and /healthz to 1.4 s (the abuse suite, test/security/abuse.test.ts).
 */
let deriving: Promise<unknown> = Promise.resolve();

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  const key = deriving.then(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, derived) =>
          error ? reject(error) : resolve(derived),
        );
      }),
  );
  // The next one waits for this one to end, however it ends.
  deriving = key.catch(() => undefined);
  return key;
}

export async function hashPassword(password: string, cost: PasswordCost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, KEY_LENGTH);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verifying against this for unknown users keeps their answer as slow as a wrong password's.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

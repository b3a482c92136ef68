import { hkdfSync } from 'node:crypto';

/** A key for one purpose derived from SESSION_SECRET (HKDF-SHA256), so one secret serves all. */
export function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'the-product', purpose, 32)).toString('base64url');
}

/**
 * One purpose's key from each of the site's secrets (SESSION_SECRETS), newest first: the first
 * seals and signs, every one opens and verifies, so what an older secret made keeps working until
 * that secret is taken out of the list (docs/decisions/051).
 */
export function deriveKeys(secrets: readonly string[], purpose: string): string[] {
  return secrets.map((secret) => deriveKey(secret, purpose));
}

/** deriveKeys as raw bytes. */
export function deriveKeyBytes(secrets: readonly string[], purpose: string): Buffer[] {
  return deriveKeys(secrets, purpose).map((key) => Buffer.from(key, 'base64url'));
}

/** One key or several, newest first: the list (a module made with one key is made with a list of one). */
export type Keys<T> = T | readonly T[];

export function keyList<T extends string | Buffer | Uint8Array>(keys: Keys<T>): readonly T[] {
  const list = isList(keys) ? keys : [keys];
  if (list.length === 0) throw new Error('No key given: at least the newest is needed to seal');
  return list;
}

function isList<T extends string | Buffer | Uint8Array>(keys: Keys<T>): keys is readonly T[] {
  return Array.isArray(keys);
}

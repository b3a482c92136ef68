// A shared secret given by a caller (a preview link's, a webhook's) against the configured one.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant time whatever the lengths (the digests are compared, never the texts); anything but a string fails. */
export function secretMatches(given: unknown, secret: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}

// The contact form carries a signed timestamp of when it was shown, so the server can tell a
// form filled in by a person from one posted by a script a few milliseconds after loading. A
// token lives a few hours and sends one message (the store remembers used ones until then), so
// a script cannot load the form once and post it without end.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { keyList, type Keys } from '../auth/keys.ts';

export const MIN_FILL_MS = 3000;
/** Long enough to write a message at leisure, short enough that a harvested token goes stale. */
export const FORM_TOKEN_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/** What the store keeps of a used token (never the token itself). */
export function formTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** `key`: one, or several newest first (SESSION_SECRETS): a token is signed with the first and accepted from any. */
export function createFormTokens(key: Keys<string>, now: () => number = Date.now) {
  const keys = keyList(key);
  const sign = (issuedAt: number, signingKey = keys[0]!) =>
    createHmac('sha256', signingKey).update(`contact:${issuedAt}`).digest('base64url').slice(0, 22);
  const signedByAny = (issuedAt: number, given: Buffer) =>
    keys.some((candidate) => {
      const expected = Buffer.from(sign(issuedAt, candidate));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  return {
    issue(): string {
      const issuedAt = now();
      return `${issuedAt}.${sign(issuedAt)}`;
    },
    /** Milliseconds since the form was shown, or null for a missing, forged, future or expired token. */
    age(token: unknown): number | null {
      if (typeof token !== 'string') return null;
      const match = /^(\d{13})\.([A-Za-z0-9_-]{22})$/.exec(token);
      if (!match) return null;
      const issuedAt = Number(match[1]);
      if (!signedByAny(issuedAt, Buffer.from(match[2]!))) return null;
      const age = now() - issuedAt;
      return age < 0 || age > FORM_TOKEN_MAX_AGE_MS ? null : age;
    },
  };
}

export type FormTokens = ReturnType<typeof createFormTokens>;

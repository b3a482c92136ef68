// The contact form carries a signed timestamp of when it was shown, so the server can tell a
// form filled in by a person from one posted by a script a few milliseconds after loading. A
// token lives a few hours and sends one message (the store remembers used ones until then), so
// a script cannot load the form once and post it without end.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const MIN_FILL_MS = 3000;
/** Long enough to write a message at leisure, short enough that a harvested token goes stale. */
export const FORM_TOKEN_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/** What the store keeps of a used token (never the token itself). */
export function formTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function createFormTokens(key: string, now: () => number = Date.now) {
  const sign = (issuedAt: number) => createHmac('sha256', key).update(`contact:${issuedAt}`).digest('base64url').slice(0, 22);
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
      const expected = Buffer.from(sign(issuedAt));
      const given = Buffer.from(match[2]!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      const age = now() - issuedAt;
      return age < 0 || age > FORM_TOKEN_MAX_AGE_MS ? null : age;
    },
  };
}

export type FormTokens = ReturnType<typeof createFormTokens>;

// The contact form carries a signed timestamp of when it was shown, so the server can tell a
// form filled in by a person from one posted by a script a few milliseconds after loading.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MIN_FILL_MS = 3000;

export function createFormTokens(key: string, now: () => number = Date.now) {
  const sign = (issuedAt: number) => createHmac('sha256', key).update(`contact:${issuedAt}`).digest('base64url').slice(0, 22);
  return {
    issue(): string {
      const issuedAt = now();
      return `${issuedAt}.${sign(issuedAt)}`;
    },
    /** Milliseconds since the form was shown, or null for a missing or forged token. */
    age(token: unknown): number | null {
      if (typeof token !== 'string') return null;
      const match = /^(\d{13})\.([A-Za-z0-9_-]{22})$/.exec(token);
      if (!match) return null;
      const issuedAt = Number(match[1]);
      const expected = Buffer.from(sign(issuedAt));
      const given = Buffer.from(match[2]!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      return now() - issuedAt;
    },
  };
}

export type FormTokens = ReturnType<typeof createFormTokens>;

// The locale each user last used (a page they asked for while signed in, or the form they signed
// in on): the language of the e-mails the site sends them (server/mail/). A page view is not a
// write: the row changes only when the locale differs from what this process last saw.
import { canonicalIdentity } from '../../shared/identity.ts';
import type { Locale } from '../../shared/locales.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../base/logger.ts';
import { BoundedMap } from '../../shared/bounded-map.ts';

/** How many users' last locale one process remembers (the oldest is forgotten first). */
const REMEMBERED_USERS = 10_000;

export type UserLocales = {
  /** A signed-in page in `locale`: recorded in the background when it changed; never fails the page. */
  seen(userName: string, locale: Locale): void;
  /** A sign-in: always recorded (and awaited: it is one write per sign-in). */
  signedIn(userName: string, locale: Locale): Promise<void>;
};

export function userLocales(db: Db, logger: Logger): UserLocales {
  // User names compare without regard to case, as in the database.
  const lastSeen = new BoundedMap<string, Locale>(REMEMBERED_USERS);

  function remember(key: string, locale: Locale) {
    lastSeen.set(key, locale);
  }

  async function write(userName: string, locale: Locale): Promise<void> {
    const key = canonicalIdentity(userName);
    remember(key, locale);
    try {
      const updatedAt = new Date().toISOString();
      await db.k
        .insertInto('user_locales')
        .values({ user_name: userName, locale, updated_at: updatedAt })
        .onConflict((oc) => oc.column('user_name').doUpdateSet({ locale, updated_at: updatedAt }))
        .execute();
    } catch (error) {
      // Forgotten, so that the next page tries again.
      if (lastSeen.get(key) === locale) lastSeen.delete(key);
      logger.warn({ err: error, userName }, "the user's locale could not be recorded");
    }
  }

  return {
    seen(userName, locale) {
      if (lastSeen.get(canonicalIdentity(userName)) === locale) return;
      void write(userName, locale);
    },
    signedIn: write,
  };
}

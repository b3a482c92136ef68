// Who an e-mail goes to: users of the site's database (the built-in API's; with an external API
// there may be none), with their address, name, role and the locale they last used.
import { defaultLocale, isLocale, type Locale } from '../../shared/locales.ts';
import type { Db } from '../db/index.ts';
import { inChunks } from '../db/lists.ts';

export type Recipient = { id: number; createdAt: string; userName: string; email: string; name: string; role: string; locale: Locale };

function recipientQuery(db: Db) {
  return (
    db.k
      .selectFrom('users')
      .leftJoin('user_locales', 'user_locales.user_name', 'users.user_name')
      .select(['users.id', 'users.created_at', 'users.user_name', 'users.email', 'users.name', 'users.role', 'user_locales.locale'])
      .where('users.disabled', '=', 0)
      .where('users.email', 'is not', null)
      // An address somebody typed and nobody accepted gets nothing but its invitation (docs/decisions/052).
      .where('users.invited_at', 'is', null)
  );
}

function toRecipient(row: {
  id: number;
  created_at: string;
  user_name: string;
  email: string | null;
  name: string;
  role: string;
  locale: string | null;
}): Recipient {
  return {
    id: Number(row.id),
    createdAt: row.created_at,
    userName: row.user_name,
    email: row.email!,
    name: row.name,
    role: row.role,
    locale: isLocale(row.locale) ? row.locale : defaultLocale,
  };
}

/**
 * The enabled users of these names that have an address and accepted their invitation, by user
 * name (canonical: shared/identity.ts); asked SQL_LIST_MAX names at a time, however many.
 */
export async function findRecipients(db: Db, userNames: readonly string[]): Promise<Map<string, Recipient>> {
  const found = new Map<string, Recipient>();
  for (const names of inChunks(userNames)) {
    const rows = await recipientQuery(db).where('users.user_name', 'in', names).execute();
    for (const row of rows) found.set(row.user_name, toRecipient(row));
  }
  return found;
}

/** The enabled admins that have an address (and accepted their invitation). */
export async function adminRecipients(db: Db): Promise<Recipient[]> {
  const rows = await recipientQuery(db).where('users.role', '=', 'ADMIN').orderBy('users.user_name').execute();
  return rows.map(toRecipient);
}

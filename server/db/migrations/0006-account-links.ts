import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const accountLinks: Migration = {
  version: 6,
  name: 'account links: invitations, password resets, e-mail changes',
  async up(db, engine) {
    const t = columnTypes(engine);
    // Single-use links sent by e-mail (server/account-links/links.ts): only the sha256 digest of a
    // link's token is kept, never the token. Used and expired rows stay a few days, so that a
    // link opened again is told "already used" or "expired" rather than "unknown".
    await db.schema
      .createTable('account_links')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('invitation', 'password_reset', 'email_change')`))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('new_email', t.nocase)
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addColumn('used_at', t.bigint)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('account_links_user').on('account_links').columns(['user_name', 'kind']).execute();
    await db.schema.createIndex('account_links_expiry').on('account_links').column('expires_at').execute();
    // Set while an invited user has not chosen a password yet (the console shows who).
    await db.schema.alterTable('users').addColumn('invited_at', 'text').execute();
  },
};

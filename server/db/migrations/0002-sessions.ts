import { columnTypes, type Migration } from './migration.ts';

export const sessions: Migration = {
  version: 2,
  name: 'server-side sessions (instead of revoked tokens)',
  async up(db, engine) {
    const t = columnTypes(engine);
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // No foreign key: with an external API (API_URL) the users are the API's, not ours.
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addColumn('api_token', 'text', (c) => c.notNull())
      .addColumn('token_digest', 'text', (c) => c.notNull())
      .execute();
    // Not unique: an external API may answer two sign-ins with the same token.
    await db.schema.createIndex('sessions_token').on('sessions').column('token_digest').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_name').execute();
    await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();
    await db.schema.dropTable('revoked_tokens').ifExists().execute();
  },
};

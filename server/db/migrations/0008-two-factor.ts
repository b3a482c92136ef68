import { columnTypes, type Migration } from './migration.ts';

export const twoFactor: Migration = {
  version: 8,
  name: 'two-factor authentication',
  async up(db, engine) {
    const t = columnTypes(engine);
    // No foreign keys: with an external API (API_URL) the users are the API's, not ours.
    // One row per user who has 2FA or is setting it up (enabled_at null). The secret is
    // encrypted (server/two-factor/secrets.ts); last_step is the last time step a code was
    // accepted for, so that no code counts twice.
    await db.schema
      .createTable('two_factor')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled_at', 'text')
      .addColumn('last_step', t.bigint)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // Keyed digests of the one-time recovery codes; used_at is set once, atomically.
    await db.schema
      .createTable('two_factor_recovery_codes')
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('two_factor_recovery_codes_pk', ['user_name', 'digest'])
      .execute();
    // A password that was right, waiting for its second factor: no session exists until the
    // code is. The browser's cookie holds a random id; the row holds its digest.
    await db.schema
      .createTable('two_factor_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('api_token', 'text', (c) => c.notNull())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

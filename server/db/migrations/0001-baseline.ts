import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const baseline: Migration = {
  version: 1,
  name: 'baseline: users, rate limits, branding, contact messages, form tokens, uploads',
  async up(db, engine) {
    const t = columnTypes(engine);
    if (engine === 'postgres') await sql`CREATE EXTENSION IF NOT EXISTS citext`.execute(db);
    await db.schema
      .createTable('users')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull().unique())
      .addColumn('email', t.nocase, (c) => c.unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('ADMIN', 'CLI', 'ORG', 'CONS')`))
      .addColumn('avatar', 'text')
      .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('disabled', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`disabled IN (0, 1)`),
      )
      .addColumn('password_changed_at', t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('reset_at', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('branding')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey().references('users.user_name').onUpdate('cascade').onDelete('cascade'))
      .addColumn('color', 'text')
      .addColumn('logo', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('contact_messages')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('es', 'en')`))
      .addColumn('consent_at', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('read', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`read IN (0, 1)`),
      )
      .addColumn('notify_status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('none')
          .check(sql`notify_status IN ('none', 'pending', 'sent', 'failed')`),
      )
      .addColumn('notify_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('notify_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('contact_messages_created').on('contact_messages').columns(['created_at desc', 'id desc']).execute();
    await db.schema.createIndex('contact_messages_notify').on('contact_messages').column('notify_status').execute();
    await db.schema
      .createTable('used_form_tokens')
      .addColumn('digest', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('used_form_tokens_expiry').on('used_form_tokens').column('expires_at').execute();
    await db.schema
      .createTable('uploads')
      .addColumn('url', 'text', (c) => c.primaryKey())
      .addColumn('owner', t.nocase, (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('uploads_owner').on('uploads').column('owner').execute();
  },
};

import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const mailOutbox: Migration = {
  version: 5,
  name: 'mail outbox; the locale each user last used',
  async up(db, engine) {
    const t = columnTypes(engine);
    // Every e-mail the site sends, rendered when it is queued: the senders of all instances
    // take due rows from here (claimed_at: one sender at a time), so none is lost in a restart.
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('reply_to', 'text')
      .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('es', 'en')`))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`status IN ('pending', 'sent', 'failed')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('next_attempt_at', t.bigint, (c) => c.notNull())
      .addColumn('claimed_at', t.bigint)
      .addColumn('ref', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('mail_outbox_ref').on('mail_outbox').column('ref').execute();
    // No foreign key: with an external API (API_URL) the users are the API's, not ours.
    await db.schema
      .createTable('user_locales')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('es', 'en')`))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

import type { Migration } from './migration.ts';

export const mailPriority: Migration = {
  version: 11,
  name: 'mail priority: security e-mails before notices',
  async up(db) {
    // 0: a security e-mail (a link to choose a password, confirm an address; a warning to the
    // account's address); 1: a notice. The senders take the lowest first (server/mail/outbox.ts).
    await db.schema
      .alterTable('mail_outbox')
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db
      .updateTable('mail_outbox')
      .set({ priority: 0 })
      .where('kind', 'in', ['invitation', 'password_reset', 'email_change_confirm', 'email_change_requested', 'email_changed'])
      .execute();
    await db.schema.dropIndex('mail_outbox_due').execute();
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'priority', 'next_attempt_at']).execute();
  },
};

import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const contactInbox: Migration = {
  version: 25,
  name: 'the contact inbox as a working tool: a status per message, the sender’s company, the replies sent from the console',
  async up(db, engine) {
    const t = columnTypes(engine);
    // new (a lead nobody has dealt with), answered (a reply went from the console), archived.
    await db.schema
      .alterTable('contact_messages')
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('new')
          .check(sql`status IN ('new', 'answered', 'archived')`),
      )
      .execute();
    // Before this, reading a message was all the console did with it (the answer went by e-mail,
    // outside the site): a message read then was dealt with, and is kept archived, not a new lead.
    await db.updateTable('contact_messages').set({ status: 'archived' }).where('read', '=', 1).execute();
    // The company the sender named (the form's field is optional): "invite as client" fills it in.
    await db.schema.alterTable('contact_messages').addColumn('company', 'text').execute();
    // A page of one status, newest first, and the count of new leads (the navbar's badge).
    await db.schema
      .createIndex('contact_messages_status')
      .on('contact_messages')
      .columns(['status', 'created_at desc', 'id desc'])
      .execute();
    // What an admin wrote back, kept with the message (gone with it). The author's name is kept
    // as it was: the account may change or go. The e-mail is a row of the outbox (ref
    // contact-reply:<id>), queued in the same transaction.
    await db.schema
      .createTable('contact_replies')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('message_id', 'integer', (c) => c.notNull().references('contact_messages.id').onDelete('cascade'))
      .addColumn('author', t.nocase, (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('contact_replies_message').on('contact_replies').columns(['message_id', 'id']).execute();
  },
};

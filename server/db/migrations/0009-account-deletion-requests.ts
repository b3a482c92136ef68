import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const accountDeletionRequests: Migration = {
  version: 9,
  name: 'account deletion requests',
  async up(db, engine) {
    const t = columnTypes(engine);
    // One row per user who asked for their account to be deleted: pending until an admin
    // confirms (the user and the row go) or refuses (kept, so that the user sees the answer).
    await db.schema
      .createTable('deletion_requests')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey().references('users.user_name').onUpdate('cascade').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'refused')`))
      .addColumn('requested_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', t.nocase)
      .execute();
    // A user's own messages, page by page (their data export; their deletion re-attributes them).
    await db.schema.createIndex('project_messages_author').on('project_messages').columns(['author', 'id']).execute();
  },
};

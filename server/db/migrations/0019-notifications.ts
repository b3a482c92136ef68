import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const notifications: Migration = {
  version: 19,
  name: 'notifications: every notice of a project, per recipient, read or not (the bell and its page)',
  async up(db, engine) {
    const t = columnTypes(engine);
    // One row per recipient of a notice (server/notifications/). The project's title and the
    // actor's name are kept as they were said: a notification reads the same later.
    await db.schema
      .createTable('notifications')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
      .addColumn('project_title', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('ref', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .execute();
    // A user's page, newest first; their unread ones (the bell's count); a held notice's rows.
    await db.schema.createIndex('notifications_user').on('notifications').columns(['user_name', 'id desc']).execute();
    await db.schema
      .createIndex('notifications_unread')
      .on('notifications')
      .columns(['user_name', 'project_id'])
      .where(sql.ref('read_at'), 'is', null)
      .execute();
    await db.schema.createIndex('notifications_ref').on('notifications').column('ref').execute();
    await db.schema.createIndex('notifications_created').on('notifications').column('created_at').execute();
  },
};

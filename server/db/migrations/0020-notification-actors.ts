import { columnTypes, type Migration } from './migration.ts';

export const notificationActors: Migration = {
  version: 20,
  name: "notifications name their actor's account: an account deleted stops being named in them",
  async up(db, engine) {
    const t = columnTypes(engine);
    // Rows written before: nobody to find (their actor's name stays as it was said).
    await db.schema
      .alterTable('notifications')
      .addColumn('actor_user', t.nocase, (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('notifications_actor').on('notifications').column('actor_user').execute();
  },
};

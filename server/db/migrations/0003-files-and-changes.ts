import { columnTypes, type Migration } from './migration.ts';

export const filesAndChanges: Migration = {
  version: 3,
  name: 'uploaded files in the database; the change counter of shared caches',
  async up(db, engine) {
    const t = columnTypes(engine);
    // Rows of files that were on disk are filled in by moveUploadsIntoDatabase (db/files.ts).
    await db.schema
      .alterTable('uploads')
      .addColumn('content_type', 'text', (c) => c.notNull().defaultTo('application/octet-stream'))
      .execute();
    await db.schema.alterTable('uploads').addColumn('data', t.blob).execute();
    await db.schema
      .createTable('changes')
      .addColumn('topic', 'text', (c) => c.primaryKey())
      .addColumn('version', t.bigint, (c) => c.notNull())
      .execute();
  },
};

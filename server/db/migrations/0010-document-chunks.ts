import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const documentChunks: Migration = {
  version: 10,
  name: 'project documents stored in chunks of 256 KiB',
  async up(db, engine) {
    const t = columnTypes(engine);
    // A download reads one chunk at a time (server/projects/document-chunks.ts): a 10 MB
    // document no longer costs 10 MB of memory per download, on either engine.
    await db.schema
      .createTable('project_document_chunks')
      .addColumn('document_id', 'integer', (c) => c.notNull().references('project_documents.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', t.blob, (c) => c.notNull())
      .addPrimaryKeyConstraint('project_document_chunks_pk', ['document_id', 'seq'])
      .execute();
    // The documents kept whole are cut in the database itself (substr counts bytes of a blob on
    // both engines): no document passes through the process's memory.
    await sql`
      WITH RECURSIVE parts (document_id, seq) AS (
        SELECT id, 0 FROM project_documents
        UNION ALL
        SELECT parts.document_id, parts.seq + 1 FROM parts JOIN project_documents d ON d.id = parts.document_id
        WHERE (parts.seq + 1) * 262144 < length(d.data)
      )
      INSERT INTO project_document_chunks (document_id, seq, data)
      SELECT parts.document_id, parts.seq, substr(d.data, parts.seq * 262144 + 1, 262144)
      FROM parts JOIN project_documents d ON d.id = parts.document_id`.execute(db);
    await db.schema.alterTable('project_documents').dropColumn('data').execute();
  },
};

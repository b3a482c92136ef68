// A project document's bytes, kept in rows of DOCUMENT_CHUNK_BYTES (project_document_chunks):
// a download reads one row at a time as the client takes them, so that it costs one chunk of
// memory on SQLite and PostgreSQL alike, never the whole file (docs/decisions/028).
import type { Transaction } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Schema } from '../db/schema.ts';

/** The bytes of one stored chunk: the 10th migration cut the documents stored before at this size too. */
export const DOCUMENT_CHUNK_BYTES = 256 * 1024;
/** Chunks inserted per statement when a document is stored (a few MB of parameters at most). */
const CHUNKS_PER_INSERT = 8;

/** Stores the bytes of document `documentId` (within the transaction that inserts the document). */
export async function storeDocumentChunks(trx: Transaction<Schema>, documentId: number, data: Buffer): Promise<void> {
  const rows = [];
  for (let seq = 0; seq * DOCUMENT_CHUNK_BYTES < data.length; seq++) {
    rows.push({ document_id: documentId, seq, data: data.subarray(seq * DOCUMENT_CHUNK_BYTES, (seq + 1) * DOCUMENT_CHUNK_BYTES) });
  }
  for (let i = 0; i < rows.length; i += CHUNKS_PER_INSERT) {
    await trx
      .insertInto('project_document_chunks')
      .values(rows.slice(i, i + CHUNKS_PER_INSERT))
      .execute();
  }
}

/** The bytes of a document of `bytes` bytes, one chunk (one query) at a time, as they are asked for. */
export async function* documentChunks(db: Db, documentId: number, bytes: number): AsyncGenerator<Buffer> {
  const count = Math.ceil(bytes / DOCUMENT_CHUNK_BYTES);
  for (let seq = 0; seq < count; seq++) {
    const row = await db.k
      .selectFrom('project_document_chunks')
      .select('data')
      .where('document_id', '=', documentId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    // Gone half-way (the document deleted meanwhile): the download fails rather than end short.
    if (!row) throw new Error(`Document ${documentId} has no chunk ${seq} of ${count}`);
    yield Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
  }
}

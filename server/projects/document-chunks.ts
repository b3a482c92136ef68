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

/** A whole file's bytes as the chunks it is stored in: views of `data`, nothing copied. */
export function chunksOf(data: Buffer): Buffer[] {
  const chunks = [];
  for (let at = 0; at < data.length; at += DOCUMENT_CHUNK_BYTES) chunks.push(data.subarray(at, at + DOCUMENT_CHUNK_BYTES));
  return chunks;
}

/**
 * The bytes of a document given as the chunks it is stored in — DOCUMENT_CHUNK_BYTES each, the
 * last one 1 to DOCUMENT_CHUNK_BYTES — or an error that names the first chunk cut otherwise.
 */
export function chunkedBytes(chunks: readonly Buffer[]): number {
  let bytes = 0;
  chunks.forEach((chunk, seq) => {
    const last = seq === chunks.length - 1;
    if (last ? chunk.length === 0 || chunk.length > DOCUMENT_CHUNK_BYTES : chunk.length !== DOCUMENT_CHUNK_BYTES) {
      throw new Error(
        `Chunk ${seq} of ${chunks.length} has ${chunk.length} bytes: chunks have ${DOCUMENT_CHUNK_BYTES}, the last one at most`,
      );
    }
    bytes += chunk.length;
  });
  return bytes;
}

/**
 * Stores the bytes of document `documentId` (within the transaction that inserts the document),
 * given as the chunks they are stored in (chunkedBytes): each one a row as it is, never joined.
 */
export async function storeDocumentChunks(trx: Transaction<Schema>, documentId: number, chunks: readonly Buffer[]): Promise<void> {
  chunkedBytes(chunks);
  for (let first = 0; first < chunks.length; first += CHUNKS_PER_INSERT) {
    await trx
      .insertInto('project_document_chunks')
      .values(chunks.slice(first, first + CHUNKS_PER_INSERT).map((data, i) => ({ document_id: documentId, seq: first + i, data })))
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

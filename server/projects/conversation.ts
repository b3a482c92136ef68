// The conversation of a project: its message thread (with what each participant has read) and
// its documents, stored in the database so that every instance serves them. Open while the
// project is; read-only once closed, declined or cancelled. Documents count
// against byte quotas per user and per project, and their uploaders and admins delete them
// (docs/decisions/031-document-quotas-and-deletion.md).
import type { Transaction } from 'kysely';
import {
  isWritable,
  mayDeleteDocument,
  PROJECT_LIMITS,
  type DocumentPage,
  type MessagePage,
  type ProjectDocument,
  type ProjectMessage,
  type ProjectState,
} from '../../shared/projects.ts';
import { cursorPageOf, pageSizeOf } from '../../shared/paging.ts';
import type { Audit } from '../audit/types.ts';
import type { Db } from '../db/index.ts';
import type { ProjectDocumentsTable, Schema } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { displayName, projectFor, type Actor } from './access.ts';
import { EVERYONE } from './audience.ts';
import { recordProjectEvent } from './events.ts';
import { cleanFileName, documentName, documentType, DOCUMENT_EXTENSIONS } from './documents.ts';
import { chunkedBytes, documentChunks, storeDocumentChunks } from './document-chunks.ts';
import { documentUsage, MEGABYTE, quotaRefusal, takeQuotaTurn, uploadRoom, type DocumentQuotas } from './document-quotas.ts';
import type { Projects } from './service.ts';

/** A stored document as a download reads it: its bytes come a chunk at a time from `chunks()`. */
export type DocumentFile = { name: string; contentType: string; bytes: number; chunks: () => AsyncIterable<Buffer> };

function readOnly(): ApiError {
  return new ApiError(409, 'read_only', 'The project is closed, declined or cancelled: it is read-only');
}

function documentNotFound(): ApiError {
  return new ApiError(404, 'not_found', 'No such document');
}

type DocumentRow = Pick<ProjectDocumentsTable, 'name' | 'content_type' | 'bytes' | 'uploaded_by' | 'uploaded_at'> & { id: number };

function documentOf(row: DocumentRow): ProjectDocument {
  return {
    id: row.id,
    name: row.name,
    contentType: row.content_type,
    bytes: Number(row.bytes),
    uploadedBy: row.uploaded_by,
    uploadedAt: row.uploaded_at,
  };
}

export type ConversationDeps = {
  db: Db;
  projects: Projects;
  now?: () => Date;
  /** Byte quotas of documents (PROJECT_DOCUMENTS_QUOTA_MB_PER_*); none when absent (tools, the demo's seed). */
  quotas?: DocumentQuotas;
  /** Where a document's deletion is recorded (default: nowhere). */
  audit?: Audit;
};

/** What the thread and the documents share: the deps (quotas and audit read when used), the query builder and the clock. */
type ConversationContext = { deps: ConversationDeps; db: Db; projects: Projects; k: Db['k']; now: () => Date };

/** The message thread and what each participant has read of it. */
function createThread(ctx: ConversationContext) {
  const { db, projects, k, now } = ctx;

  /** Records that the actor has seen every message up to `lastId` (never moves back). */
  async function markRead(projectId: number, userName: string, lastId: number) {
    if (lastId <= 0) return;
    await k
      .insertInto('project_reads')
      .values({ project_id: projectId, user_name: userName, last_read_id: lastId })
      .onConflict((oc) =>
        oc.columns(['project_id', 'user_name']).doUpdateSet({ last_read_id: lastId }).where('project_reads.last_read_id', '<', lastId),
      )
      .execute();
    // Their badge counts again on their next page, in this process at once.
    projects.forgetUnread(userName);
  }

  /**
   * A page of the thread, newest first: the `pageSize` messages older than message `before` (the
   * newest when null), as the history is paged (shared/paging.ts). Reading the newest page marks
   * the thread read for the actor.
   */
  async function messages(
    actor: Actor,
    id: number,
    query: { before?: number | null | undefined; pageSize?: number | undefined } = {},
  ): Promise<MessagePage> {
    const { row } = await projectFor(db, actor, id);
    const before = query.before ?? null;
    const pageSize = pageSizeOf('messages', query.pageSize);
    let page = k.selectFrom('project_messages').selectAll().where('project_id', '=', id);
    if (before !== null) page = page.where('id', '<', before);
    // The count is kept with the project (migration 15): the page costs its rows, however long the thread.
    const total = row.message_count;
    const rows = await page
      .orderBy('id', 'desc')
      .limit(pageSize + 1)
      .execute();
    if (before === null && rows[0]) await markRead(id, actor.userName, rows[0].id);
    const items = rows.map((m): ProjectMessage => ({
      id: m.id,
      author: { userName: m.author, name: m.author_name, role: m.author_role },
      body: m.body,
      createdAt: m.created_at,
    }));
    return cursorPageOf(items, { pageSize, before, total: Number(total) });
  }

  async function postMessage(actor: Actor, id: number, body: string): Promise<ProjectMessage> {
    const { row } = await projectFor(db, actor, id);
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    await projects.admit('message', actor.userName);
    const at = now().toISOString();
    const inserted = await k.transaction().execute(async (trx) => {
      const message = await trx
        .insertInto('project_messages')
        .values({ project_id: id, author: actor.userName, author_name: displayName(actor), author_role: actor.role, body, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.updateTable('projects').set({ updated_at: at }).where('id', '=', id).execute();
      return message.id;
    });
    // One's own message is read.
    await markRead(id, actor.userName, inserted);
    // Their badges count the new message when their pages are told (the live topic forgets them: server/live/).
    await projects.announce('message_posted', actor, row, EVERYONE, { excerpt: body });
    await projects.touched(row);
    return { id: inserted, author: { userName: actor.userName, name: displayName(actor), role: actor.role }, body, createdAt: at };
  }

  return { markRead, messages, postMessage };
}

/**
 * What an uploaded file is to be stored as — its size, its type told by its first bytes and its
 * cleaned name — or the error that refuses it (empty, too large, not a document type).
 */
function checkedFile(file: { name: string; chunks: readonly Buffer[] }): { bytes: number; name: string; contentType: string } {
  const bytes = chunkedBytes(file.chunks);
  if (bytes === 0) throw new ApiError(422, 'empty_file', 'The file is empty', { file: 'validation.fileEmpty' });
  if (bytes > PROJECT_LIMITS.documentBytes) {
    throw new ApiError(413, 'file_too_large', `A document may have at most ${PROJECT_LIMITS.documentBytes / MEGABYTE} MB`, {
      file: 'validation.fileTooLarge',
    });
  }
  const cleaned = cleanFileName(file.name);
  // The first chunk is the whole file or 256 KiB of it: every byte a type is told by.
  const contentType = documentType(file.chunks[0]!, cleaned);
  if (!contentType) {
    throw new ApiError(415, 'unsupported_file', `Documents are PDF, images or office files (${DOCUMENT_EXTENSIONS.join(', ')})`, {
      file: 'validation.fileType',
    });
  }
  // Named for what its bytes are: a PDF called "x.bat" is stored as "x.bat.pdf".
  return { bytes, name: documentName(cleaned, contentType), contentType };
}

/**
 * Inside the upload's transaction: the project's count and the quotas checked, then the document
 * and its chunks stored; its id.
 */
async function storeDocument(
  ctx: ConversationContext,
  trx: Transaction<Schema>,
  actor: Actor,
  id: number,
  doc: { bytes: number; name: string; contentType: string; at: string; chunks: readonly Buffer[] },
): Promise<number> {
  const { db } = ctx;
  const { quotas } = ctx.deps;
  // Uploads counting against the same quotas take turns from here to the commit: the sums
  // below stay true until this document is stored (document-quotas.ts).
  await takeQuotaTurn(trx, db.engine, actor.userName, id, doc.at);
  const count = await trx
    .selectFrom('project_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= PROJECT_LIMITS.documentsPerProject) {
    throw new ApiError(422, 'too_many_documents', `A project has at most ${PROJECT_LIMITS.documentsPerProject} documents`);
  }
  if (quotas) {
    const refused = quotaRefusal(quotas, await documentUsage(trx, actor.userName, id), doc.bytes);
    if (refused) throw refused;
  }
  const inserted = await trx
    .insertInto('project_documents')
    .values({
      project_id: id,
      name: doc.name,
      content_type: doc.contentType,
      bytes: doc.bytes,
      uploaded_by: actor.userName,
      uploaded_at: doc.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await storeDocumentChunks(trx, inserted.id, doc.chunks);
  return inserted.id;
}

/** The project's documents: listed, admitted, stored, deleted and read. */
function createDocuments(ctx: ConversationContext) {
  const { db, projects, k, now } = ctx;

  /** A page of the project's documents, newest first; page 1 holds the newest. */
  async function documents(
    actor: Actor,
    id: number,
    query: { page?: number | undefined; pageSize?: number | undefined } = {},
  ): Promise<DocumentPage> {
    await projectFor(db, actor, id);
    const page = query.page ?? 1;
    const pageSize = pageSizeOf('documents', query.pageSize);
    const [{ total }, rows] = await Promise.all([
      k
        .selectFrom('project_documents')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('project_id', '=', id)
        .executeTakeFirstOrThrow(),
      k
        .selectFrom('project_documents')
        .select(['id', 'name', 'content_type', 'bytes', 'uploaded_by', 'uploaded_at'])
        .where('project_id', '=', id)
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
    ]);
    return { items: rows.map(documentOf), total: Number(total), page, pageSize };
  }

  /**
   * Whether the actor may upload a document here now — a participant, the project open, under
   * their rate, room left in their quota and the project's — decided before a byte of the file
   * is read; counts the upload. What the file may have at most (and the error past it), for the
   * multipart reader; a declared `contentLength` that cannot fit is refused here (413).
   */
  async function admitDocument(actor: Actor, id: number, contentLength: number | null = null) {
    const { row } = await projectFor(db, actor, id);
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    const usage = ctx.deps.quotas ? await documentUsage(db, actor.userName, id) : null;
    // A body that cannot fit is refused before it counts against the user's rate.
    const room = uploadRoom(ctx.deps.quotas, usage, contentLength);
    await projects.admit('document', actor.userName);
    return room;
  }

  /**
   * Stores a document whose bytes come as the chunks they are stored in (DOCUMENT_CHUNK_BYTES
   * each, as the multipart reader cuts them, or chunksOf() a whole buffer): they are stored as
   * they are, never joined into one buffer; its type is told by its first bytes.
   */
  async function addDocument(actor: Actor, id: number, file: { name: string; chunks: readonly Buffer[] }): Promise<ProjectDocument> {
    const { row } = await projectFor(db, actor, id);
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    const { bytes, name, contentType } = checkedFile(file);
    const at = now().toISOString();
    const inserted = await k
      .transaction()
      .execute((trx) => storeDocument(ctx, trx, actor, id, { bytes, name, contentType, at, chunks: file.chunks }));
    await projects.announce('document_added', actor, row, EVERYONE, { document: name });
    await projects.touched(row);
    return { id: inserted, name, contentType, bytes, uploadedBy: actor.userName, uploadedAt: at };
  }

  /**
   * Deletes a document: by the person who uploaded it or an admin (403 for the project's other
   * participants), while the project is open (409 once read-only, as for uploads); a document
   * the actor cannot see is 404, like one that does not exist. Its chunks go with it (foreign
   * key), its bytes are free again at once; the history says who deleted what, and the audit
   * log records it with the caller's address.
   */
  async function deleteDocument(actor: Actor, id: number, documentId: number, context: { ip?: string | null } = {}): Promise<void> {
    const { row } = await projectFor(db, actor, id);
    const found = await k
      .selectFrom('project_documents')
      .select(['id', 'name', 'content_type', 'bytes', 'uploaded_by', 'uploaded_at'])
      .where('id', '=', documentId)
      .where('project_id', '=', id)
      .executeTakeFirst();
    if (!found) throw documentNotFound();
    const doc = documentOf(found);
    if (!mayDeleteDocument(actor, doc))
      throw new ApiError(403, 'forbidden', 'Only the person who uploaded a document, or an admin, may delete it');
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    const at = now().toISOString();
    await k.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('project_documents')
        .where('id', '=', documentId)
        .where('project_id', '=', id)
        .executeTakeFirst();
      // Deleted meanwhile by someone else: theirs is the history line.
      if (Number(deleted.numDeletedRows) === 0) throw documentNotFound();
      await recordProjectEvent(trx, id, actor, at, { kind: 'document_deleted', detail: doc.name });
    });
    await ctx.deps.audit?.record({
      action: 'document_deleted',
      actor: actor.userName,
      target: doc.uploadedBy === actor.userName ? null : doc.uploadedBy,
      ip: context.ip ?? null,
      detail: { project: id, document: doc.id, name: doc.name, bytes: doc.bytes },
    });
    await projects.touched(row);
  }

  /**
   * A document, for a participant of its project only (404 otherwise): what it is, and its bytes
   * to be read a chunk at a time while they are sent (document-chunks.ts).
   */
  async function readDocument(actor: Actor, id: number, documentId: number): Promise<DocumentFile> {
    await projectFor(db, actor, id);
    const doc = await k
      .selectFrom('project_documents')
      .select(['name', 'content_type', 'bytes'])
      .where('id', '=', documentId)
      .where('project_id', '=', id)
      .executeTakeFirst();
    if (!doc) throw documentNotFound();
    const bytes = Number(doc.bytes);
    return { name: doc.name, contentType: doc.content_type, bytes, chunks: () => documentChunks(db, documentId, bytes) };
  }

  return { documents, admitDocument, addDocument, deleteDocument, readDocument };
}

export function createConversation(deps: ConversationDeps) {
  const { db, projects } = deps;
  const ctx: ConversationContext = { deps, db, projects, k: db.k, now: () => (deps.now ?? (() => new Date()))() };
  const { messages, postMessage, markRead } = createThread(ctx);
  const { documents, admitDocument, addDocument, deleteDocument, readDocument } = createDocuments(ctx);
  return { messages, postMessage, markRead, documents, admitDocument, addDocument, deleteDocument, readDocument };
}

export type Conversation = ReturnType<typeof createConversation>;

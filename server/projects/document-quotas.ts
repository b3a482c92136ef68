// Byte quotas of project documents (docs/decisions/031): what one user's documents
// may take over every project together (PROJECT_DOCUMENTS_QUOTA_MB_PER_USER) and what one
// project's documents may take (PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT). The usage is the sum of
// the stored documents' bytes, asked of the database, so that every instance agrees and a
// deleted document frees its bytes at once; an upload is checked three times: against the
// declared Content-Length before a byte is read, by the multipart reader as the bytes come, and
// in the transaction that stores it, where two uploads racing for the last bytes take turns.
import { sql, type Transaction } from 'kysely';
import { canonicalIdentity } from '../../shared/identity.ts';
import { PROJECT_LIMITS } from '../../shared/projects.ts';
import type { Db } from '../db/index.ts';
import type { Schema } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

export type DocumentQuotas = {
  /** Bytes one user's documents may take, every project together. */
  perUserBytes: number;
  /** Bytes one project's documents may take, whoever uploaded them. */
  perProjectBytes: number;
};

export const MEGABYTE = 1024 * 1024;

/** The quotas of the configuration's MB. */
export function documentQuotas(config: { PROJECT_DOCUMENTS_QUOTA_MB_PER_USER: number; PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT: number }) {
  return {
    perUserBytes: Math.floor(config.PROJECT_DOCUMENTS_QUOTA_MB_PER_USER * MEGABYTE),
    perProjectBytes: Math.floor(config.PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT * MEGABYTE),
  } satisfies DocumentQuotas;
}

/**
 * What a multipart body carries besides the file's bytes (its boundaries, the part's headers,
 * the form's `intent`): a declared Content-Length past what is left by more than this is refused
 * unread. A body that claims more and holds less is still read, and stopped at what is left.
 */
export const MULTIPART_FRAMING_BYTES = 64 * 1024;

/** `PROJECT_DOCUMENTS_QUOTA_MB_PER_USER` (`user`) or `PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT` (`project`). */
export type QuotaScope = 'user' | 'project';

/** MB with one decimal, rounded down: a message never promises more room than there is. */
function megabytes(bytes: number): number {
  return Math.floor((bytes / MEGABYTE) * 10) / 10;
}

/**
 * 413: the quota named, with what is left of it. `params` (in MB) are the form's message's
 * (formErrors.user_quota_exceeded / project_quota_exceeded in the reader's language).
 */
export class QuotaExceededError extends ApiError {
  readonly params: { quota: number; left: number };
  constructor(scope: QuotaScope, quotaBytes: number, leftBytes: number) {
    const left = Math.max(0, leftBytes);
    const params = { quota: megabytes(quotaBytes), left: megabytes(left) };
    super(
      413,
      `${scope}_quota_exceeded`,
      scope === 'user'
        ? `Your documents may take ${params.quota} MB in all, over every project (PROJECT_DOCUMENTS_QUOTA_MB_PER_USER): ${left} bytes (${params.left} MB) are left`
        : `This project's documents may take ${params.quota} MB in all (PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT): ${left} bytes (${params.left} MB) are left`,
    );
    this.name = 'QuotaExceededError';
    this.params = params;
  }
}

export type Usage = { user: number; project: number };

/** The bytes of the user's documents (every project) and of the project's (everyone's), as stored now. */
export async function documentUsage(db: Db | Transaction<Schema>, userName: string, projectId: number): Promise<Usage> {
  const k = 'k' in db ? db.k : db;
  const [user, project] = await Promise.all([
    k
      .selectFrom('project_documents')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), sql<number>`0`).as('bytes'))
      .where('uploaded_by', '=', userName)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('project_documents')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), sql<number>`0`).as('bytes'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { user: Number(user.bytes), project: Number(project.bytes) };
}

/** How many more bytes the user may store in the project, and which quota is the tighter one. */
export function roomLeft(quotas: DocumentQuotas, usage: Usage): { bytes: number; scope: QuotaScope } {
  const user = quotas.perUserBytes - usage.user;
  const project = quotas.perProjectBytes - usage.project;
  return user <= project ? { bytes: Math.max(0, user), scope: 'user' } : { bytes: Math.max(0, project), scope: 'project' };
}

/** The 413 of the quota that leaves too little room for `bytes`, or null when they fit. */
export function quotaRefusal(quotas: DocumentQuotas, usage: Usage, bytes: number): QuotaExceededError | null {
  const room = roomLeft(quotas, usage);
  if (bytes <= room.bytes) return null;
  return new QuotaExceededError(room.scope, room.scope === 'user' ? quotas.perUserBytes : quotas.perProjectBytes, room.bytes);
}

/** The two ints of PostgreSQL's advisory locks that guard one user's quota: a class of our own and the name's hash. */
const USER_QUOTA_LOCK_CLASS = 230_401;

/**
 * Makes the uploads that count against this user's and this project's quotas take turns until
 * the transaction ends, so that the sums it reads next stay true until it has stored its
 * document. Always the user first, then the project: two transactions never wait for each other
 * the other way round.
 * - PostgreSQL: an advisory lock on the user's name (no row of `users` is held: with an
 *   external API there may be none), then the project's row (`updated_at`, set anyway).
 * - SQLite: the update is the transaction's first write, which takes the database's write lock:
 *   every other writer, in this process or another, waits for the commit.
 */
export async function takeQuotaTurn(trx: Transaction<Schema>, engine: Db['engine'], userName: string, projectId: number, at: string) {
  if (engine === 'postgres') {
    await sql`SELECT pg_advisory_xact_lock(${USER_QUOTA_LOCK_CLASS}, hashtext(${canonicalIdentity(userName)}))`.execute(trx);
  }
  await trx.updateTable('projects').set({ updated_at: at }).where('id', '=', projectId).execute();
}

/**
 * Before a byte of an upload is read: the most its file may have (the per-document limit or
 * what is left of the quotas, the smaller), and the error for a file past it, which comes at
 * once when the declared Content-Length cannot fit.
 */
export function uploadRoom(
  quotas: DocumentQuotas | undefined,
  usage: Usage | null,
  contentLength: number | null,
): { maxBytes: number; tooLarge: () => ApiError } {
  let maxBytes = PROJECT_LIMITS.documentBytes;
  let tooLarge = (): ApiError =>
    new ApiError(413, 'file_too_large', `A document may have at most ${PROJECT_LIMITS.documentBytes / MEGABYTE} MB`, {
      file: 'validation.fileTooLarge',
    });
  if (quotas && usage) {
    const room = roomLeft(quotas, usage);
    if (room.bytes < maxBytes) {
      const quota = room.scope === 'user' ? quotas.perUserBytes : quotas.perProjectBytes;
      maxBytes = room.bytes;
      tooLarge = () => new QuotaExceededError(room.scope, quota, room.bytes);
    }
  }
  if (maxBytes === 0 || (contentLength !== null && contentLength > maxBytes + MULTIPART_FRAMING_BYTES)) throw tooLarge();
  return { maxBytes, tooLarge };
}

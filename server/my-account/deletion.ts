// Account deletion: the user asks (with their password, checked by the caller), may withdraw
// while it is pending, and an admin confirms or refuses. Confirming erases the account in one
// transaction (erase.ts); it is refused when it would leave the site without an enabled admin
// (the last admin's own request, or two admins deleting each other at once), and an admin's own
// request is confirmed by another admin.
import { canonicalIdentity } from '../../shared/identity.ts';
import type { DeletionRequestItem, DeletionState } from '../../shared/account.ts';
import { PAGE_NUMBER_MAX, pageSizeOf, type NumberedPage } from '../../shared/paging.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import type { Sessions } from '../auth/session-store.ts';
import { eraseAccount } from './erase.ts';
import { createReadCache } from '../db/read-cache.ts';

export type Deletions = {
  stateOf(userName: string): Promise<DeletionState>;
  /** A new request (or again after a refusal); answers false when one was already pending. */
  request(userName: string): Promise<boolean>;
  /** Withdraws a pending request; false when there was none. */
  withdraw(userName: string): Promise<boolean>;
  /** A page of the pending requests, oldest first, with who asked. */
  pending(page?: { page?: number | undefined; pageSize?: number | undefined }): Promise<NumberedPage<DeletionRequestItem>>;
  refuse(admin: string, userName: string): Promise<void>;
  /** Erases the account of a pending request; answers the role it had. */
  confirm(admin: string, userName: string): Promise<{ userName: string; role: string }>;
};

function requestNotFound(userName: string): ApiError {
  return new ApiError(404, 'request_not_found', `No pending deletion request for ${JSON.stringify(userName)}`);
}

export function createDeletions(deps: { db: Db; sessions: Pick<Sessions, 'forgetUser'>; changes?: ChangeFeed; logger: Logger }): Deletions {
  const { db } = deps;
  const { k } = db;
  const now = () => new Date().toISOString();

  /** A page of the pending requests, oldest first, with who asked (the users table joined). */
  async function pendingPage(page: number, pageSize: number): Promise<NumberedPage<DeletionRequestItem>> {
    const pending = k
      .selectFrom('deletion_requests as d')
      .innerJoin('users as u', 'u.user_name', 'd.user_name')
      .where('d.status', '=', 'pending');
    const [rows, count] = await Promise.all([
      pending
        .select(['u.user_name', 'u.name', 'u.last_name', 'u.email', 'u.role', 'd.requested_at'])
        .orderBy('d.requested_at')
        .orderBy('u.user_name')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      pending.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items = rows.map((r) => ({
      userName: r.user_name,
      name: r.name,
      lastName: r.last_name,
      email: r.email,
      role: r.role,
      requestedAt: r.requested_at,
    }));
    return { items, total: Number(count.n), page, pageSize };
  }
  const pendingPages = createReadCache<NumberedPage<DeletionRequestItem>>(db, { tables: ['deletion_requests', 'users'] });

  return {
    async stateOf(userName) {
      const row = await k.selectFrom('deletion_requests').selectAll().where('user_name', '=', userName).executeTakeFirst();
      if (!row) return { status: 'none' };
      if (row.status === 'refused')
        return { status: 'refused', requestedAt: row.requested_at, decidedAt: row.decided_at ?? row.requested_at };
      return { status: 'pending', requestedAt: row.requested_at };
    },

    async request(userName) {
      const at = now();
      // One row per user: a refused request becomes pending again; a pending one stays as it was.
      const result = await k
        .insertInto('deletion_requests')
        .values({ user_name: userName, status: 'pending', requested_at: at, decided_at: null, decided_by: null })
        .onConflict((oc) =>
          oc
            .column('user_name')
            .doUpdateSet({ status: 'pending', requested_at: at, decided_at: null, decided_by: null })
            .where('deletion_requests.status', '<>', 'pending'),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async withdraw(userName) {
      const result = await k
        .deleteFrom('deletion_requests')
        .where('user_name', '=', userName)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async pending(asked = {}) {
      const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, Math.floor(asked.page ?? 1)));
      const pageSize = pageSizeOf('deletionRequests', asked.pageSize);
      // The admin console's home counts them on every load: kept a moment (db/read-cache.ts).
      return pendingPages.get(`${page}:${pageSize}`, () => pendingPage(page, pageSize));
    },

    async refuse(admin, userName) {
      const result = await k
        .updateTable('deletion_requests')
        .set({ status: 'refused', decided_at: now(), decided_by: admin })
        .where('user_name', '=', userName)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw requestNotFound(userName);
    },

    async confirm(admin, userName) {
      const erased = await k.transaction().execute(async (trx) => {
        const request = await trx
          .selectFrom('deletion_requests')
          .select('user_name')
          .where('user_name', '=', userName)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (!request) throw requestNotFound(userName);
        // The enabled admins, locked (PostgreSQL) so that two admins deleting each other in the
        // same moment cannot both pass: the second one reads the first one gone.
        let admins = trx.selectFrom('users').select(['user_name']).where('role', '=', 'ADMIN').where('disabled', '=', 0);
        if (db.engine === 'postgres') admins = admins.forUpdate();
        const enabledAdmins = await admins.execute();
        const user = await trx.selectFrom('users').select(['user_name', 'role']).where('user_name', '=', userName).executeTakeFirst();
        if (!user) throw requestNotFound(userName);
        const others = enabledAdmins.filter((a) => a.user_name !== user.user_name);
        if (user.role === 'ADMIN' && others.length === 0) {
          throw new ApiError(409, 'last_admin', `${user.user_name} is the last administrator: the site needs one, so the account stays`);
        }
        if (canonicalIdentity(admin) === user.user_name) {
          throw new ApiError(409, 'own_request', 'Another administrator must confirm the deletion of your own account');
        }
        await eraseAccount(trx, { userName: user.user_name });
        return { userName: user.user_name, role: user.role };
      });
      // Their sessions went with the account: every instance forgets them at once.
      deps.sessions.forgetUser(erased.userName);
      await deps.changes
        ?.publish(`branding:${erased.userName.toLowerCase()}`)
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not announce a branding change'));
      return erased;
    },
  };
}

// The console's calls about account deletion requests (/api/admin/deletion-requests).
import type { DeletionRequestItem } from '../../../shared/account.ts';
import type { NumberedPage } from '../../../shared/paging.ts';
import { callApi, isRecord, type ApiAnswer } from '../api.ts';

function readItem(value: unknown): DeletionRequestItem | null {
  if (!isRecord(value)) return null;
  const { userName, name, lastName, email, role, requestedAt } = value;
  if (typeof userName !== 'string' || typeof requestedAt !== 'string' || typeof role !== 'string') return null;
  return {
    userName,
    name: typeof name === 'string' ? name : '',
    lastName: typeof lastName === 'string' ? lastName : '',
    email: typeof email === 'string' ? email : null,
    role,
    requestedAt,
  };
}

/** A page of the pending requests, oldest first (at most PAGE_SIZES.deletionRequests.max). */
export type DeletionRequestPage = NumberedPage<DeletionRequestItem>;

function readPage(value: unknown): DeletionRequestPage | null {
  if (!isRecord(value) || !Array.isArray(value.items)) return null;
  const { total, page, pageSize } = value;
  if (typeof total !== 'number' || typeof page !== 'number' || typeof pageSize !== 'number') return null;
  const items: DeletionRequestItem[] = [];
  for (const item of value.items) {
    const read = readItem(item);
    if (!read) return null;
    items.push(read);
  }
  return { items, total, page, pageSize };
}

const requestPath = (userName: string) => `/api/admin/deletion-requests/${encodeURIComponent(userName)}`;

export function fetchDeletionRequests(page = 1): Promise<ApiAnswer<DeletionRequestPage>> {
  return callApi(`/api/admin/deletion-requests?page=${page}`, readPage);
}

/** Erases the account: answered once it is gone. */
export function confirmDeletion(userName: string): Promise<ApiAnswer<true>> {
  return callApi(`${requestPath(userName)}/confirm`, () => true, 'POST');
}

export function refuseDeletion(userName: string): Promise<ApiAnswer<true>> {
  return callApi(`${requestPath(userName)}/refuse`, () => true, 'POST');
}

// The console's calls about account deletion requests (/api/admin/deletion-requests).
import type { DeletionRequestItem } from '../../../shared/account.ts';
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

function readItems(value: unknown): DeletionRequestItem[] | null {
  if (!isRecord(value) || !Array.isArray(value.items)) return null;
  const items: DeletionRequestItem[] = [];
  for (const item of value.items) {
    const read = readItem(item);
    if (!read) return null;
    items.push(read);
  }
  return items;
}

const requestPath = (userName: string) => `/api/admin/deletion-requests/${encodeURIComponent(userName)}`;

export function fetchDeletionRequests(): Promise<ApiAnswer<DeletionRequestItem[]>> {
  return callApi('/api/admin/deletion-requests', readItems);
}

/** Erases the account: answered once it is gone. */
export function confirmDeletion(userName: string): Promise<ApiAnswer<true>> {
  return callApi(`${requestPath(userName)}/confirm`, () => true, 'POST');
}

export function refuseDeletion(userName: string): Promise<ApiAnswer<true>> {
  return callApi(`${requestPath(userName)}/refuse`, () => true, 'POST');
}

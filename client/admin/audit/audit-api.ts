// The audit log's calls: /api/admin/audit (through the console's one request function).
import type { AuditFilter, AuditPage, AuditRecord } from '../../../shared/audit.ts';
import { callApi, isRecord, type ApiAnswer } from '../api.ts';

function readAuditRecord(value: unknown): AuditRecord | null {
  if (!isRecord(value)) return null;
  const { id, at, action, actor, target, ip, detail } = value;
  if (typeof id !== 'number' || typeof at !== 'string' || typeof action !== 'string') return null;
  const facts: AuditRecord['detail'] = {};
  if (isRecord(detail)) {
    for (const [key, fact] of Object.entries(detail)) {
      if (typeof fact === 'string' || typeof fact === 'number' || typeof fact === 'boolean' || fact === null) facts[key] = fact;
    }
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { id, at, action, actor: text(actor), target: text(target), ip: text(ip), detail: facts };
}

function readAuditPage(value: unknown): AuditPage | null {
  if (!isRecord(value) || !Array.isArray(value.items)) return null;
  const { total, page, pageSize } = value;
  if (typeof total !== 'number' || typeof page !== 'number' || typeof pageSize !== 'number') return null;
  const items: AuditRecord[] = [];
  for (const item of value.items) {
    const record = readAuditRecord(item);
    if (!record) return null;
    items.push(record);
  }
  return { items, total, page, pageSize };
}

export function fetchAudit(filter: AuditFilter, page: number, pageSize: number): Promise<ApiAnswer<AuditPage>> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  return callApi(`/api/admin/audit?${params.toString()}`, readAuditPage);
}

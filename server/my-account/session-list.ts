// The user's own list of sessions: where each signed in (device, address), when it was made and
// last seen, and which one is this browser. A session is named to the page by a digest of its
// id, never the id itself (the secret its cookie carries).
import { createHash } from 'node:crypto';
import type { SessionSummary } from '../../shared/account.ts';
import { deviceOf } from '../../shared/user-agent.ts';
import type { SessionRow } from '../db/schema.ts';

export function sessionRef(id: string): string {
  return createHash('sha256').update(`session ref\0${id}`).digest('base64url').slice(0, 22);
}

export function sessionSummaries(rows: readonly SessionRow[], currentId: string | null): SessionSummary[] {
  const summaries = rows.map((row) => ({
    ref: sessionRef(row.id),
    device: deviceOf(row.user_agent),
    ip: row.ip,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    current: row.id === currentId,
  }));
  // This browser first, then the most recently seen.
  return summaries.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
}

// A project's history: one line per thing that happened (created, a state move or proposal, an
// expert or milestone added or removed, a milestone done or reopened, a document deleted), by
// whom (their name as it was then) and when, written in the transaction of the change itself —
// so the history never claims what did not happen, nor misses what did. The project's
// `updated_at` moves with it (dashboards order by it); the counts on the project are kept by the
// database's triggers (migration 15).
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { displayName, type Actor } from './access.ts';

export type ProjectEvent = {
  kind: string;
  /** States, for a state move. */
  from?: string | null;
  to?: string | null;
  /** What it was about, in words: a fee, an expert's or milestone's name, a document's name. */
  detail?: string | null;
  /** The milestone a milestone_done / milestone_reopened line is about. */
  milestoneId?: number;
};

/**
 * Writes one history line of project `projectId` at `at` (ISO time), inside the caller's
 * transaction, and moves the project's `updated_at` to it unless `touch` is false (the caller
 * already wrote the project row in the same transaction).
 */
export async function recordProjectEvent(
  trx: Kysely<Schema>,
  projectId: number,
  actor: Actor,
  at: string,
  event: ProjectEvent,
  { touch = true }: { touch?: boolean } = {},
): Promise<void> {
  await trx
    .insertInto('project_events')
    .values({
      project_id: projectId,
      at,
      actor: actor.userName,
      actor_name: displayName(actor),
      kind: event.kind,
      from_state: event.from ?? null,
      to_state: event.to ?? null,
      detail: event.detail ?? null,
      ...(event.milestoneId !== undefined ? { milestone_id: event.milestoneId } : {}),
    })
    .execute();
  if (touch) await trx.updateTable('projects').set({ updated_at: at }).where('id', '=', projectId).execute();
}

// What the projects tell the composition after a change is committed (server/boot/domains.ts):
// one notice per event, with who may hear it as an audience (audience.ts), not as a list of
// names — the names are read when the notice is fanned out (server/fan-out/), from who may see the
// project then (docs/decisions/052). The mail module finds each recipient's address, language and area.
import type { NotificationKind } from '../../shared/notifications.ts';
import type { Audience } from './audience.ts';

/** The kinds of notice: the notification centre's kinds (shared/notifications.ts), one list. */
export type ProjectNoticeKind = NotificationKind;

/** What a notice says, the same for each of its recipients. */
export type NoticeContent = {
  kind: ProjectNoticeKind;
  project: { id: number; title: string };
  /** Who did it: never a recipient of their own action's notice. */
  actor: { userName: string; name: string };
  from?: string;
  to?: string;
  milestone?: string;
  excerpt?: string;
  /** A document's name (document_added). */
  document?: string;
  /** A milestone's due day, YYYY-MM-DD (reminders). */
  due?: string;
  /** Who was assigned, as they are named (expert_assigned). */
  expert?: string;
  /** The proposal's version (proposal_sent). */
  version?: number;
  /** Held for `ms` under `ref`, so that a change undone meanwhile can withdraw it (a milestone's toggles). */
  hold?: { ref: string; ms: number };
};

/** A notice as the projects tell it: what it says, and which of the project's people it is for. */
export type ProjectNoticeInput = NoticeContent & { audience: Audience };

/** A notice for these people by user name: a batch of a fan-out, or a reminder's people. */
export type AddressedNotice = NoticeContent & { recipients: string[] };

/** Queues a notice (fanned out off the request path); the action is committed before, and a failure here is logged, never thrown. */
export type Notify = (notice: ProjectNoticeInput) => Promise<void>;

/** The open pages of everyone who sees the project read it again (queued like a notice). */
export type Touch = (projectId: number) => Promise<void>;

/** Takes back the held notices of `ref` that have not gone out yet. */
export type Withdraw = (ref: string) => Promise<unknown>;

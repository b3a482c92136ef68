// What the projects tell the mail module (server/mail): one notice per event, addressed by
// user name; the mail module finds each recipient's address, language and area.
import type { NotificationKind } from '../../shared/notifications.ts';

/** The kinds of notice: the notification centre's kinds (shared/notifications.ts), one list. */
export type ProjectNoticeKind = NotificationKind;

export type ProjectNoticeInput = {
  kind: ProjectNoticeKind;
  project: { id: number; title: string };
  /** Who did it: never a recipient of their own action's mail. */
  actor: { userName: string; name: string };
  recipients: string[];
  from?: string;
  to?: string;
  milestone?: string;
  excerpt?: string;
  /** A document's name (document_added). */
  document?: string;
  /** A milestone's due day, YYYY-MM-DD (reminders). */
  due?: string;
  /** Held for `ms` under `ref`, so that a change undone meanwhile can withdraw it (a milestone's toggles). */
  hold?: { ref: string; ms: number };
};

/** Queues a notice's e-mails; the action is committed before, and a failure here is logged, never thrown. */
export type Notify = (notice: ProjectNoticeInput) => Promise<void>;

/** Takes back the held notices of `ref` that have not gone out yet. */
export type Withdraw = (ref: string) => Promise<unknown>;

// The notification centre (docs/decisions/042): every notice the site e-mails about a
// project is also a notification of its recipient — the bell's count in the navbar, the page
// /notifications, GET /api/notifications. And the live stream's events (server/live/), which
// tell an open page that something it shows changed.
import type { CursorPage } from './paging.ts';

/** What happened: the notices of server/projects/notices.ts, and the reminders of server/jobs/reminders.ts. */
export const NOTIFICATION_KINDS = [
  'brief_submitted',
  'proposal_sent',
  'message_posted',
  'expert_assigned',
  'milestone_done',
  'state_changed',
  'document_added',
  'milestone_due',
  'milestone_overdue',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type Notification = {
  id: number;
  kind: NotificationKind;
  /** The project, by its title when it happened; null when an older record has none. */
  project: { id: number; title: string } | null;
  /** Who did it, as they were named then. */
  actor: string;
  /** A move: the states it went from and to. */
  from?: string;
  to?: string;
  /** A milestone's name. */
  milestone?: string;
  /** A reminder's due day (YYYY-MM-DD). */
  due?: string;
  /** A document's name. */
  document?: string;
  /** The start of a message. */
  excerpt?: string;
  /** Who was assigned (expert_assigned). */
  expert?: string;
  /** The proposal's version (proposal_sent). */
  version?: number;
  createdAt: string;
  read: boolean;
};

/** A page of the user's notifications, newest first, with how many are unread. */
export type NotificationPage = CursorPage<Notification> & { unread: number };

/** The longest excerpt of a message a notification keeps. */
export const NOTIFICATION_EXCERPT_MAX = 200;

/** The bell shows at most this count ("99+" past it); the database counts no further. */
export const NOTIFICATIONS_BADGE_MAX = 100;

/** The live stream: one per signed-in tab (server/live/). */
export const LIVE_PATH = '/live';

/**
 * The events of the live stream. `notification` carries an `id:` (the notification's), so that a
 * reconnection's Last-Event-ID gets what it missed; the others say what to read again.
 */
export type LiveEvent =
  | { type: 'notification'; data: { id: number; kind: NotificationKind; projectId: number | null; unread: number } }
  /** Something a project's page or a dashboard shows changed: read the page again. */
  | { type: 'project'; data: { id: number } }
  /** The count of unread notifications (after they were read elsewhere). */
  | { type: 'unread'; data: { unread: number } }
  /** The stream ends for good (signed out, session ended): do not reconnect. */
  | { type: 'end'; data: { reason: 'signed_out' } };

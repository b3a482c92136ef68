// A contact message as the API answers it (GET /api/admin/messages): one type for the server's
// store and the admin console's inbox, with the replies sent from the console.
import type { Locale } from './locales.ts';

export const NOTIFY_STATUSES = ['none', 'pending', 'sent', 'failed'] as const;
/** The e-mail notification: none (no SMTP), pending (to be retried), sent, failed (gave up). */
export type NotifyStatus = (typeof NOTIFY_STATUSES)[number];

/**
 * Where a message stands: new (a lead nobody has dealt with: the navbar's badge counts them),
 * answered (a reply went from the console), archived (dealt with, kept out of the way).
 */
export const CONTACT_STATUSES = ['new', 'answered', 'archived'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export function isContactStatus(value: unknown): value is ContactStatus {
  return typeof value === 'string' && (CONTACT_STATUSES as readonly string[]).includes(value);
}

/**
 * What the inbox's list shows: one status, the messages not archived (`active`, the default
 * view), or every message (`all`).
 */
export const INBOX_VIEWS = ['active', ...CONTACT_STATUSES, 'all'] as const;
export type InboxView = (typeof INBOX_VIEWS)[number];

/** The longest reply an admin may send (as the contact form's own message). */
export const REPLY_MAX_LENGTH = 5000;

export type ContactMessage = {
  id: number;
  name: string;
  email: string;
  /** The company the sender named, if any. */
  company: string | null;
  subject: string;
  message: string;
  locale: Locale;
  read: boolean;
  status: ContactStatus;
  notifyStatus: NotifyStatus;
  createdAt: string;
};

/** A reply sent from the console: who wrote it (their name as it was), when, and where its e-mail stands. */
export type ContactReply = {
  id: number;
  author: { userName: string; name: string };
  text: string;
  createdAt: string;
  /** The e-mail to the sender: pending (queued or to be retried), sent, failed (gave up). */
  delivery: 'pending' | 'sent' | 'failed';
};

/** How many messages each status holds, in the whole inbox. */
export type StatusCounts = Record<ContactStatus, number>;

export type MessageList = {
  items: ContactMessage[];
  total: number;
  unread: number;
  counts: StatusCounts;
  page: number;
  pageSize: number;
};

/** The inbox page's URL (/admin/inbox): the view, its page, the open message, a deletion to confirm (without JavaScript). */
export const INBOX_QUERY_PARAMS = { view: 'status', page: 'page', message: 'message', confirm: 'confirm' } as const;

/** Where the open message is on the page (its section's id): a link to it lands there. */
export const INBOX_MESSAGE_ANCHOR = 'inbox-message';

/** What the inbox page shows: a page of a view, the open message with its replies, whether a reply can be sent. */
export type InboxPage = {
  list: MessageList;
  view: InboxView;
  /** The message of `?message=`, or null; `missing`: the URL named one that is not (or no longer) there. */
  open: { message: ContactMessage; replies: ContactReply[]; confirmDelete: boolean } | null;
  missing: boolean;
  /** The site sends e-mail: a reply can go from the console. */
  canReply: boolean;
};

export function isInboxView(value: unknown): value is InboxView {
  return typeof value === 'string' && (INBOX_VIEWS as readonly string[]).includes(value);
}

/** The inbox page's query for a view, a page and an open message (what works without JavaScript). */
export function inboxQuery(to: { view: InboxView; page?: number; message?: number | null; confirmDelete?: boolean }): string {
  const query = new URLSearchParams();
  const params = INBOX_QUERY_PARAMS;
  if (to.view !== 'active') query.set(params.view, to.view);
  if (to.page && to.page > 1) query.set(params.page, String(to.page));
  if (to.message) query.set(params.message, String(to.message));
  if (to.confirmDelete) query.set(params.confirm, 'delete');
  const search = query.toString();
  return search ? `?${search}` : '';
}

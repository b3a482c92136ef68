// A contact message as the API answers it (GET /api/admin/messages): one type for the server's
// store and the admin console's inbox.
import type { Locale } from './locales.ts';

export const NOTIFY_STATUSES = ['none', 'pending', 'sent', 'failed'] as const;
/** The e-mail notification: none (no SMTP), pending (to be retried), sent, failed (gave up). */
export type NotifyStatus = (typeof NOTIFY_STATUSES)[number];

export type ContactMessage = {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: Locale;
  read: boolean;
  notifyStatus: NotifyStatus;
  createdAt: string;
};

export type MessageList = { items: ContactMessage[]; total: number; unread: number; page: number; pageSize: number };

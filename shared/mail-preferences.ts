// The e-mail a user gets about their projects (docs/decisions/044): per topic —
// messages, state changes, milestones, documents, reminders — at once, in a daily digest, or
// never. The notification centre keeps every notice whatever the choice; security e-mails
// (links to set a password or confirm an address, invitations, two-factor, account warnings)
// are not notices and always go.
import type { NotificationKind } from './notifications.ts';

export const MAIL_TOPICS = ['messages', 'states', 'milestones', 'documents', 'reminders'] as const;
export type MailTopic = (typeof MAIL_TOPICS)[number];

export const MAIL_MODES = ['immediate', 'digest', 'never'] as const;
export type MailMode = (typeof MAIL_MODES)[number];

/** The topic each notice belongs to. */
export const TOPIC_OF_KIND: Readonly<Record<NotificationKind, MailTopic>> = {
  brief_submitted: 'states',
  proposal_sent: 'states',
  expert_assigned: 'states',
  state_changed: 'states',
  message_posted: 'messages',
  milestone_done: 'milestones',
  document_added: 'documents',
  milestone_due: 'reminders',
  milestone_overdue: 'reminders',
};

/** Days before a milestone's due day its participants are reminded (each user chooses). */
export const REMINDER_DAYS_DEFAULT = 3;
export const REMINDER_DAYS_MIN = 1;
export const REMINDER_DAYS_MAX = 30;

export type MailPreferences = Record<MailTopic, MailMode> & { reminderDays: number };

/** What a user who never chose gets: every notice at once, as before preferences existed. */
export const DEFAULT_MAIL_PREFERENCES: MailPreferences = {
  messages: 'immediate',
  states: 'immediate',
  milestones: 'immediate',
  documents: 'immediate',
  reminders: 'immediate',
  reminderDays: REMINDER_DAYS_DEFAULT,
};

export function isMailMode(value: unknown): value is MailMode {
  return typeof value === 'string' && (MAIL_MODES as readonly string[]).includes(value);
}

export function isMailTopic(value: unknown): value is MailTopic {
  return typeof value === 'string' && (MAIL_TOPICS as readonly string[]).includes(value);
}

/** What an unsubscribe link turns off: one topic, or everything the daily digest gathers. */
export type UnsubscribeScope = MailTopic | 'digest';

/** The profile form's intent. */
export const MAIL_PREFERENCES_INTENT = 'mailPreferences';

/** The path of one-click unsubscribe links (RFC 8058): `/unsubscribe/<token>`. */
export const UNSUBSCRIBE_PATH = '/unsubscribe';

// What a user sees and does about their own account on the profile page: where they are signed
// in, the download of everything the site holds about them, and the request to delete the
// account (an admin confirms it). Pure: shared by the server's forms and the page.
import type { Translate } from './translate.ts';
import type { Device } from './user-agent.ts';

/** The forms of the profile page about the account, by their `intent` field. */
export const ACCOUNT_INTENTS = ['endSession', 'endOtherSessions', 'requestDeletion', 'withdrawDeletion'] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

export function isAccountIntent(value: unknown): value is AccountIntent {
  return typeof value === 'string' && (ACCOUNT_INTENTS as readonly string[]).includes(value);
}

/** One session of the user as their list shows it (never its id: `ref` names it for the forms). */
export type SessionSummary = {
  /** A digest of the session's id: enough to end it, useless as a cookie. */
  ref: string;
  device: Device;
  /** The address it signed in from, as the site saw it. */
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The session of this very browser. */
  current: boolean;
};

export type DeletionState =
  { status: 'none' } | { status: 'pending'; requestedAt: string } | { status: 'refused'; requestedAt: string; decidedAt: string };

export type AccountData = {
  /** The most recently seen of the user's sessions, this browser's first (at most PAGE_SIZES.sessions). */
  sessions: SessionSummary[];
  /** How many live sessions the user has in all. */
  sessionCount: number;
  /** Null when the accounts are not this site's to delete (an external API keeps them). */
  deletion: DeletionState | null;
};

/** A pending request as the admin console lists it. */
export type DeletionRequestItem = {
  userName: string;
  name: string;
  lastName: string;
  email: string | null;
  role: string;
  requestedAt: string;
};

/**
 * Who a deleted account's traces (messages, projects, history) are attributed to: not a user
 * name anyone can have (those start with a letter or digit), shown as "Deleted user" in the
 * reader's language.
 */
export const DELETED_USER = '~deleted';

export function isDeletedUser(userName: string | null | undefined): boolean {
  return userName === DELETED_USER;
}

/** The name to show for a person a page names: theirs, or "Deleted user" for a deleted account. */
export function personName(t: Translate, person: { userName: string; name: string }): string {
  return isDeletedUser(person.userName) ? t('account.deletedUser') : person.name || person.userName;
}

/** A company's name as shown: a company named after a person whose account was deleted reads "Deleted user". */
export function companyName(t: Translate, company: { name: string }): string {
  return isDeletedUser(company.name) ? t('account.deletedUser') : company.name;
}

/** "Chrome on Android", "Firefox", "A browser on Windows", "Unknown device". */
export function deviceLabel(t: Translate, device: Device): string {
  if (device.browser && device.os) return t('account.sessions.deviceOn', { browser: device.browser, os: device.os });
  if (device.browser) return device.browser;
  if (device.os) return t('account.sessions.browserOn', { os: device.os });
  return t('account.sessions.unknownDevice');
}

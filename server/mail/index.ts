// The one way the site sends e-mail. A notice is rendered for each recipient (their language,
// their link) and queued in the database's outbox after the action that caused it was
// committed; a sender in every instance sends what is due — at once after a notice, else every
// poll — retrying with growing pauses and, after the last attempt, marking the row failed. A
// notice never fails the action it tells about: a problem is logged.
import type { i18n } from 'i18next';
import type { Kysely } from 'kysely';
import type { ContactMessage } from '../../shared/contact.ts';
import type { Locale } from '../../shared/locales.ts';
import { deriveKeyBytes } from '../auth/keys.ts';
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import { loadBrand, type Brand } from '../brand/brand.ts';
import { contactMessages } from '../contact/messages.ts';
import type { Db } from '../db/index.ts';
import type { Schema } from '../db/schema.ts';
import { projectI18n } from '../i18n/index.ts';
import type { AccountMailInput } from './account-templates.ts';
import type { ReplyMailInput } from '../contact/replies.ts';
import { createNotices } from './notices.ts';
import { insertMails, mailOutbox, type QueuedMail, type StuckMail } from './outbox.ts';
import { mailPreferences, type MailPreferencesStore } from './preferences.ts';
import type { Recipient } from './recipients.ts';
import { CLAIM_TIMEOUT_MS, createSender } from './sender.ts';
import type { DigestGroup, ProjectNoticeKind } from './templates.ts';
import { logTransport, smtpTransport, type MailTransport } from './transport.ts';
import { createTransportCheck, type TransportCheckDeps, type TransportState } from './transport-check.ts';

export type { ProjectNoticeKind } from './templates.ts';
export type { AccountMailKind } from './account-templates.ts';
export type { MailTransport, OutgoingMail } from './transport.ts';
export type { TransportState } from './transport-check.ts';
export type { DigestGroup, DigestItem } from './templates.ts';
export type { Recipient } from './recipients.ts';
export type { QueuedMail, StuckMail } from './outbox.ts';
export { MAIL_STUCK_AFTER_MS } from './outbox.ts';

export type ProjectNotice = {
  kind: ProjectNoticeKind;
  project: { id: number; title: string };
  /** Who did it (display name): never a recipient of their own action's mail. */
  actor: { userName: string; name: string };
  /** User names; the module finds each one's e-mail, display name, role and last-used locale. Unknown or address-less users are skipped (logged). */
  recipients: string[];
  from?: string;
  to?: string; // states, for state_changed
  milestone?: string; // milestone_done, reminders
  excerpt?: string; // message_posted (cut to ~300 chars by the module)
  document?: string; // document_added
  due?: string; // reminders: the due day
  expert?: string; // expert_assigned: who was assigned
  version?: number; // proposal_sent: the proposal's version
  /** Held for `ms` under its own `ref` (instead of project:<id>), so that `withdraw(ref)` can still take it back. */
  hold?: { ref: string; ms: number } | undefined;
  /** The link to the project's page for a recipient of this role in this locale (absolute URL is built by the module from PUBLIC_URL). */
  path: (role: string, locale: Locale) => string;
};

/** An account e-mail (server/account-links/): to one address, in the language the caller chose. */
export type AccountMail = Omit<AccountMailInput, 'site' | 'url'> & {
  to: string;
  /** The local path of the link, with its query (made absolute with PUBLIC_URL). */
  path: string;
  /** What caused it ('user:<name>'). */
  ref: string;
};

export type Mail = {
  /** Enqueues one rendered mail per recipient who wants this kind at once (their preferences). */
  notifyProject(notice: ProjectNotice): Promise<void>;
  /** The mails notifyProject would queue, rendered, by recipient: for a caller that queues them in its own transaction (queueIn). */
  projectMails(notice: ProjectNotice): Promise<Map<string, QueuedMail>>;
  /** Queues rendered mails in the caller's transaction; kick() after the commit sends them. */
  queueIn(trx: Kysely<Schema>, mails: readonly QueuedMail[]): Promise<void>;
  /** Sends what was queued, in the background (when this module sends in the background). */
  kick(): void;
  /** One pass over what is due, awaited (the job runner's poll), when this module sends in the background. */
  poll(): Promise<void>;
  /** A user's digest (server/jobs/digest.ts), rendered: what happened in their projects, grouped by project. */
  digestMail(recipient: Recipient, groups: readonly DigestGroup[], more: number): QueuedMail | null;
  /** The preferences every notice is filtered by. */
  preferences: MailPreferencesStore;
  /** The keys of the unsubscribe links (server/mail/unsubscribe-links.ts), newest first: links are made with the first, any opens one. */
  unsubscribeKeys: readonly Buffer[];
  notifyContact(message: ContactMessage): Promise<void>;
  /** The e-mail of a reply to a contact message, rendered in the sender's language: for the caller to queue with the reply (queueIn). */
  contactReplyMail(reply: ReplyMailInput): QueuedMail;
  /** Queues an account e-mail, before every notice; throws when it cannot (no transport, a bad link, the database). */
  sendAccountMail(mail: AccountMail): Promise<void>;
  /** Takes back the held notices of `ref` that have not started to go out: how many. */
  withdraw(ref: string): Promise<number>;
  /** The e-mails waiting for longer than MAIL_STUCK_AFTER_MS (outbox.ts), by this module's clock; null when none. */
  stuck(): Promise<StuckMail | null>;
  canSend: boolean;
  /** Whether the mail server answered its last check (transport-check.ts); undefined without SMTP or before the first check. */
  transportState(): TransportState | undefined;
  /** Checks the mail server now (nodemailer's verify); 'ok' without a server to ask. */
  verifyTransport(): Promise<TransportState>;
  /** Sends what is due now (tests, shutdown); the background loop calls it too. */
  flush(): Promise<void>;
  stop(): Promise<void>;
};

export type MailConfig = Pick<
  Config,
  'NODE_ENV' | 'PUBLIC_URL' | 'SITE_NAME' | 'SMTP_URL' | 'MAIL_FROM' | 'CONTACT_NOTIFY_TO' | 'SESSION_SECRETS'
>;

export type MailDeps = {
  db: Db;
  config: MailConfig;
  logger: Logger;
  /** Where e-mails go; by default SMTP_URL, else (not in production) the log. */
  transport?: MailTransport;
  /** The clock of due times and claims (tests move it). */
  now?: () => number;
  /** The pause before the next attempt after `failedAttempts` failed ones. */
  retryDelayMs?: (failedAttempts: number) => number;
  /** Attempts before a row is marked failed. */
  maxAttempts?: number;
  /** How often the background loop looks for due rows. */
  pollMs?: number;
  /** A claim older than this is a dead sender's: another may take the row. */
  claimTimeoutMs?: number;
  /** The company's identity in the e-mails (colours, tagline, contact details); by default read from brand/. */
  brand?: Pick<Brand, 'colors' | 'tagline' | 'page'>;
  /** Send in the background (a poll, and at once after a notice); false: only flush() sends. */
  background?: boolean;
  /** Poll the outbox itself (default): false when the job runner (server/jobs/) calls flush() at its own pace. */
  poll?: boolean;
  /** The server's i18next instance, whose `mail` namespace words the e-mails; by default the project's locales/. */
  i18n?: i18n;
  /**
   * The mail server's check (transport-check.ts): its timer and pauses (tests), or false for none.
   * It starts by itself when this module sends in the background; else the caller verifies.
   */
  verify?: Pick<TransportCheckDeps, 'schedule' | 'firstMs' | 'retryMs'> | false;
};

export const MAX_ATTEMPTS = 5;
/** 1, 2, 4, 8 minutes…, at most an hour. */
export function defaultRetryDelayMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** (failedAttempts - 1), 3_600_000);
}

export function createMail(deps: MailDeps): Mail {
  const { db, config, logger } = deps;
  const now = deps.now ?? Date.now;
  const transport =
    deps.transport ?? (config.SMTP_URL ? smtpTransport(config.SMTP_URL) : config.NODE_ENV === 'production' ? null : logTransport(logger));
  const canSend = transport !== null;
  const outbox = mailOutbox(db);
  const contacts = contactMessages(db);
  const site = { name: config.SITE_NAME, brand: deps.brand ?? loadBrand() };
  const i18n = deps.i18n ?? projectI18n();
  const preferences = mailPreferences(db, now);
  const unsubscribeKeys = deriveKeyBytes(config.SESSION_SECRETS, 'unsubscribe v1');
  const unsubscribeKey = unsubscribeKeys[0]!;
  const check =
    transport?.verify && deps.verify !== false
      ? createTransportCheck({ verify: () => transport.verify!(), logger, now, ...deps.verify })
      : null;
  const sender = createSender({
    transport,
    outbox,
    contacts,
    from: { name: config.SITE_NAME, address: config.MAIL_FROM },
    logger,
    now,
    retryDelayMs: deps.retryDelayMs ?? defaultRetryDelayMs,
    maxAttempts: deps.maxAttempts ?? MAX_ATTEMPTS,
    claimTimeoutMs: deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS,
    pollMs: deps.pollMs,
    background: deps.background,
    poll: deps.poll,
    onSent: check?.sent,
    onRefused: check?.refused,
  });
  if (check && deps.background !== false) check.start();
  if (!canSend) logger.warn('SMTP_URL is not set: the site sends no e-mail (production)');
  const notices = createNotices({ db, config, logger, now, canSend, site, i18n, preferences, unsubscribeKey, contacts, sender });

  return {
    notifyProject: notices.notifyProject,
    projectMails: notices.projectMails,
    queueIn: (trx, mails) => insertMails(trx, mails, now()),
    kick: sender.kick,
    poll: sender.poll,
    digestMail: notices.digestMail,
    preferences,
    unsubscribeKeys,
    notifyContact: notices.notifyContact,
    contactReplyMail: notices.contactReplyMail,
    sendAccountMail: notices.sendAccountMail,
    withdraw: (ref) => outbox.withdraw(ref),
    stuck: () => outbox.stuck(now()),
    canSend,
    transportState: () => check?.state(),
    verifyTransport: () => check?.verify() ?? Promise.resolve('ok'),
    flush: sender.flush,
    async stop() {
      await check?.stop();
      await sender.stop();
    },
  };
}

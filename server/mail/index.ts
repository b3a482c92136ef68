// The one way the site sends e-mail. A notice is rendered for each recipient (their language,
// their link) and queued in the database's outbox after the action that caused it was
// committed; a sender in every instance sends what is due — at once after a notice, else every
// poll — retrying with growing pauses and, after the last attempt, marking the row failed. A
// notice never fails the action it tells about: a problem is logged.
import { ownsProjects } from '../../shared/projects.ts';
import type { i18n } from 'i18next';
import { canonicalIdentity } from '../../shared/identity.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import { defaultLocale, type Locale } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import type { ContactMessage } from '../../shared/contact.ts';
import type { Config } from '../base/config.ts';
import { contactMessages } from '../contact/messages.ts';
import type { Db } from '../db/index.ts';
import type { MailOutboxRow } from '../db/schema.ts';
import type { Logger } from '../base/logger.ts';
import { loadBrand, type Brand } from '../brand/brand.ts';
import { insertMails, mailOutbox, type QueuedMail } from './outbox.ts';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { DEFAULT_MAIL_PREFERENCES, TOPIC_OF_KIND, type UnsubscribeScope } from '../../shared/mail-preferences.ts';
import { deriveKey } from '../auth/keys.ts';
import { mailPreferences, type MailPreferencesStore } from './preferences.ts';
import { unsubscribeHeaders, unsubscribePath } from './unsubscribe-links.ts';
import { adminRecipients, findRecipients, type Recipient } from './recipients.ts';
import { contactMail, projectMail, renderDigest, type DigestGroup, type ProjectNoticeKind } from './templates.ts';
import { accountMail, type AccountMailInput } from './account-templates.ts';
import { projectI18n } from '../i18n/index.ts';
import { logTransport, smtpTransport, type MailTransport } from './transport.ts';

export type { ProjectNoticeKind } from './templates.ts';
export type { AccountMailKind } from './account-templates.ts';
export type { MailTransport, OutgoingMail } from './transport.ts';
export type { DigestGroup, DigestItem } from './templates.ts';
export type { Recipient } from './recipients.ts';
export type { QueuedMail } from './outbox.ts';

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
  /** The key of the unsubscribe links (server/mail/unsubscribe-links.ts). */
  unsubscribeKey: Buffer;
  notifyContact(message: ContactMessage): Promise<void>;
  /** Queues an account e-mail, before every notice; throws when it cannot (no transport, a bad link, the database). */
  sendAccountMail(mail: AccountMail): Promise<void>;
  /** Takes back the held notices of `ref` that have not started to go out: how many. */
  withdraw(ref: string): Promise<number>;
  canSend: boolean;
  /** Sends what is due now (tests, shutdown); the background loop calls it too. */
  flush(): Promise<void>;
  stop(): Promise<void>;
};

export type MailConfig = Pick<
  Config,
  'NODE_ENV' | 'PUBLIC_URL' | 'SITE_NAME' | 'SMTP_URL' | 'MAIL_FROM' | 'CONTACT_NOTIFY_TO' | 'SESSION_SECRET'
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
};

export const MAX_ATTEMPTS = 5;
/** 1, 2, 4, 8 minutes…, at most an hour. */
export function defaultRetryDelayMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** (failedAttempts - 1), 3_600_000);
}
const POLL_MS = 30_000;
/** Longer than nodemailer's timeouts together (transport.ts): a live sender finishes before. */
const CLAIM_TIMEOUT_MS = 10 * 60_000;
/** The first look at the outbox after start (what a restart left pending), after the start itself. */
const FIRST_POLL_MS = 2_000;
const BATCH = 20;

const CONTACT_REF = /^contact:(\d+)$/;
/**
 * E-mails whose link is a key to an account: once sent (or given up) their body is removed
 * from the outbox, so that the database never keeps a usable token (links.ts keeps digests).
 */
const LINK_MAIL_KINDS: ReadonlySet<string> = new Set(['invitation', 'password_reset', 'email_change_confirm']);

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createMail(deps: MailDeps): Mail {
  const { db, config, logger } = deps;
  const now = deps.now ?? Date.now;
  const retryDelayMs = deps.retryDelayMs ?? defaultRetryDelayMs;
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;
  const claimTimeoutMs = deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS;
  const transport =
    deps.transport ?? (config.SMTP_URL ? smtpTransport(config.SMTP_URL) : config.NODE_ENV === 'production' ? null : logTransport(logger));
  const canSend = transport !== null;
  const outbox = mailOutbox(db);
  const contacts = contactMessages(db);
  const site = { name: config.SITE_NAME, brand: deps.brand ?? loadBrand() };
  const i18n = deps.i18n ?? projectI18n();
  const from = { name: config.SITE_NAME, address: config.MAIL_FROM };
  const absolute = (path: string) => `${config.PUBLIC_URL}${path}`;
  const preferences = mailPreferences(db, now);
  const unsubscribeKey = Buffer.from(deriveKey(config.SESSION_SECRET, 'unsubscribe v1'), 'base64url');
  const unsubscribeUrl = (user: Recipient, scope: UnsubscribeScope) => absolute(unsubscribePath(unsubscribeKey, user, scope));

  /** The contact message's notification status follows its rows (the admin inbox shows it). */
  async function settled(row: Pick<MailOutboxRow, 'ref'>): Promise<void> {
    const contactId = CONTACT_REF.exec(row.ref ?? '')?.[1];
    if (contactId === undefined) return;
    await contacts.setNotifyState(Number(contactId), await outbox.stateOf(row.ref!));
  }

  async function deliver(id: number): Promise<boolean> {
    const row = await outbox.claim(id, now(), claimTimeoutMs);
    if (!row) return false; // another sender has it
    const about = { mailId: row.id, kind: row.kind, ref: row.ref };
    try {
      await transport!.send({
        from,
        to: row.recipient,
        replyTo: row.reply_to ?? undefined,
        subject: row.subject,
        text: row.text,
        html: row.html,
        headers: headersOf(row),
      });
    } catch (error) {
      const attempts = Number(row.attempts) + 1;
      const giveUp = attempts >= maxAttempts;
      if (giveUp) logger.error({ err: error, ...about, attempts }, `e-mail failed ${attempts} times: given up (marked failed)`);
      else logger.warn({ err: error, ...about, attempts, retryInMs: retryDelayMs(attempts) }, 'e-mail failed: it is tried again later');
      await outbox.attemptFailed(row, errorText(error), giveUp ? null : now() + retryDelayMs(attempts));
      if (giveUp && LINK_MAIL_KINDS.has(row.kind)) await outbox.forgetBody(row.id);
      await settled(row);
      return true;
    }
    if (!(await outbox.sent(row, now()))) {
      logger.warn(about, 'e-mail sent after its claim had expired: another sender may have sent it too');
    }
    if (LINK_MAIL_KINDS.has(row.kind)) await outbox.forgetBody(row.id);
    await settled(row);
    return true;
  }

  /** One pass over the due rows, a batch at a time while this sender gets rows to send. */
  async function sendDue(): Promise<void> {
    if (!canSend) return;
    try {
      for (;;) {
        const ids = await outbox.due(now(), claimTimeoutMs, BATCH);
        let handled = 0;
        for (const id of ids) if (await deliver(id)) handled++;
        if (ids.length < BATCH || handled === 0) return;
      }
    } catch (error) {
      logger.warn({ err: error }, 'the outbox could not be worked through: tried again at the next poll');
    }
  }

  // One pass at a time; a flush asked for during a pass gets one more pass after it (rows
  // queued meanwhile are seen), and any number of such asks share that pass.
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  function flush(): Promise<void> {
    if (next) return next;
    if (running) {
      next = running.then(() => {
        next = null;
        return flush();
      });
      return next;
    }
    running = sendDue().finally(() => {
      running = null;
    });
    return running;
  }

  let stopped = !canSend || deps.background === false;
  let timer: NodeJS.Timeout | undefined;
  function poll(afterMs: number) {
    if (stopped) return;
    timer = setTimeout(() => void flush().finally(() => poll(deps.pollMs ?? POLL_MS)), afterMs);
    timer.unref();
  }
  if (deps.poll !== false) poll(FIRST_POLL_MS);
  if (!canSend) logger.warn('SMTP_URL is not set: the site sends no e-mail (production)');

  async function enqueue(mails: QueuedMail[]): Promise<void> {
    await outbox.add(mails, now());
    if (!stopped && mails.length > 0) void flush();
  }

  /** The path, made absolute; null (logged) when the caller gave something that is not a local path. */
  function linkFor(path: string, about: object): string | null {
    if (isSafeLocalPath(path)) return absolute(path);
    logger.error({ ...about, path }, 'e-mail not queued: its link is not a local path');
    return null;
  }

  async function projectMails(notice: ProjectNotice): Promise<Map<string, QueuedMail>> {
    const about = { kind: notice.kind, projectId: notice.project.id };
    const mails = new Map<string, QueuedMail>();
    if (!canSend) return mails;
    const actor = canonicalIdentity(notice.actor.userName);
    const wanted = [...new Set(notice.recipients.map(canonicalIdentity))].filter((name) => name !== actor);
    const [found, chosen] = await Promise.all([findRecipients(db, wanted), preferences.many(wanted)]);
    const topic = TOPIC_OF_KIND[notice.kind];
    for (const userName of wanted) {
      const recipient = found.get(userName);
      if (!recipient) {
        logger.warn({ ...about, userName }, 'project e-mail skipped: no such enabled user with an e-mail address');
        continue;
      }
      // A digest tells it later (from the notification centre); never: the bell only.
      if ((chosen.get(userName) ?? DEFAULT_MAIL_PREFERENCES)[topic] !== 'immediate') continue;
      // Work delivered: the owner's button opens the page at the confirmation (it asks again there).
      const asksOwner = notice.kind === 'state_changed' && notice.to === 'delivered' && ownsProjects({ role: recipient.role });
      const path = notice.path(recipient.role, recipient.locale);
      const url = linkFor(asksOwner ? `${path}?confirm=close#confirm-title` : path, { ...about, userName });
      if (url === null) continue;
      const unsubscribe = unsubscribeUrl(recipient, topic);
      const rendered = projectMail(
        {
          kind: notice.kind,
          locale: recipient.locale,
          site,
          recipient,
          title: notice.project.title,
          actor: notice.actor.name,
          from: notice.from,
          to: notice.to,
          milestone: notice.milestone,
          excerpt: notice.excerpt,
          document: notice.document,
          due: notice.due,
          url,
          unsubscribe,
        },
        i18n,
      );
      const mail: QueuedMail = {
        ...queued(notice.kind, recipient.email, recipient.locale, rendered, notice.hold?.ref ?? `project:${notice.project.id}`),
        headers: unsubscribeHeaders(unsubscribe),
      };
      mails.set(userName, notice.hold ? { ...mail, notBefore: now() + notice.hold.ms } : mail);
    }
    return mails;
  }

  async function notifyProject(notice: ProjectNotice): Promise<void> {
    const about = { kind: notice.kind, projectId: notice.project.id };
    if (!canSend) {
      logger.info(about, 'project e-mail not sent (no SMTP_URL)');
      return;
    }
    try {
      await enqueue([...(await projectMails(notice)).values()]);
    } catch (error) {
      logger.error({ err: error, ...about }, 'project e-mail could not be queued');
    }
  }

  function digestMail(recipient: Recipient, groups: readonly DigestGroup[], more: number): QueuedMail | null {
    const url = linkFor(localePath('notifications', recipient.locale), { kind: 'digest', userName: recipient.userName });
    if (url === null) return null;
    const unsubscribe = unsubscribeUrl(recipient, 'digest');
    const rendered = renderDigest({ locale: recipient.locale, site, recipient, groups, more, url, unsubscribe }, i18n);
    return {
      ...queued('digest', recipient.email, recipient.locale, rendered, `digest:${recipient.userName}`),
      headers: unsubscribeHeaders(unsubscribe),
    };
  }

  async function notifyContact(message: ContactMessage): Promise<void> {
    const about = { messageId: message.id };
    const ref = `contact:${message.id}`;
    if (!canSend) return;
    try {
      const to: (Recipient | { email: string; locale: Locale; name: null })[] = config.CONTACT_NOTIFY_TO
        ? [{ email: config.CONTACT_NOTIFY_TO, locale: defaultLocale, name: null }]
        : await adminRecipients(db);
      if (to.length === 0)
        logger.warn(about, 'contact message not e-mailed: no CONTACT_NOTIFY_TO and no enabled admin with an e-mail address');
      const mails = to.map((recipient) => {
        const rendered = contactMail(
          {
            locale: recipient.locale,
            site,
            recipient: recipient.name === null ? null : { name: recipient.name },
            message,
            url: absolute(localePath('admin', recipient.locale)),
          },
          i18n,
        );
        return { ...queued('contact_message', recipient.email, recipient.locale, rendered, ref), replyTo: message.email };
      });
      await enqueue(mails);
      if (mails.length === 0) await settled({ ref });
    } catch (error) {
      logger.error({ err: error, ...about }, 'contact e-mail could not be queued');
      await contacts.setNotifyState(message.id, { status: 'failed', attempts: 0, error: errorText(error) }).catch(() => {});
    }
  }

  async function sendAccountMail(mail: AccountMail): Promise<void> {
    if (!canSend) throw new Error(`e-mail ${mail.kind} not sent: the site has no mail server (SMTP_URL)`);
    const url = linkFor(mail.path, { kind: mail.kind, ref: mail.ref });
    if (url === null) throw new Error(`e-mail ${mail.kind} not sent: its link is not a local path`);
    const { to, path: _path, ref, ...input } = mail;
    const rendered = accountMail({ ...input, site, url }, i18n);
    // A reset or a confirmation waits for no notice (issue 23, H2).
    await enqueue([{ ...queued(mail.kind, to, mail.locale, rendered, ref), priority: 'security' }]);
  }

  return {
    notifyProject,
    projectMails,
    queueIn: (trx, mails) => insertMails(trx, mails, now()),
    kick() {
      if (!stopped) void flush();
    },
    poll: () => (stopped ? Promise.resolve() : flush()),
    digestMail,
    preferences,
    unsubscribeKey,
    notifyContact,
    sendAccountMail,
    withdraw: (ref) => outbox.withdraw(ref),
    canSend,
    flush,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await (next ?? running);
    },
  };
}

/** The headers a row was queued with (JSON), or none. */
function headersOf(row: Pick<MailOutboxRow, 'headers'>): Record<string, string> | undefined {
  if (!row.headers) return undefined;
  try {
    return JSON.parse(row.headers) as Record<string, string>;
  } catch {
    return undefined;
  }
}

function queued(
  kind: string,
  recipient: string,
  locale: Locale,
  rendered: { subject: string; text: string; html: string },
  ref: string,
): QueuedMail {
  return { kind, recipient, replyTo: null, locale, ...rendered, ref };
}

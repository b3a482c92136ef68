// What the site e-mails, rendered per recipient (their language, their link) and handed to the
// sender's outbox: project notices, digests, contact messages and account e-mails.
import type { i18n } from 'i18next';
import { canonicalIdentity } from '../../shared/identity.ts';
import { defaultLocale, type Locale } from '../../shared/locales.ts';
import { DEFAULT_MAIL_PREFERENCES, TOPIC_OF_KIND, type UnsubscribeScope } from '../../shared/mail-preferences.ts';
import type { ContactMessage } from '../../shared/contact.ts';
import { ownsProjects } from '../../shared/projects.ts';
import { localePath } from '../../shared/routes.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import type { Logger } from '../base/logger.ts';
import { replyRef, type ContactStore } from '../contact/messages.ts';
import type { ReplyMailInput } from '../contact/replies.ts';
import type { Db } from '../db/index.ts';
import { accountMail } from './account-templates.ts';
import type { AccountMail, MailConfig, ProjectNotice } from './index.ts';
import type { QueuedMail } from './outbox.ts';
import type { MailPreferencesStore } from './preferences.ts';
import { adminRecipients, findRecipients, type Recipient } from './recipients.ts';
import { errorText, type Sender } from './sender.ts';
import { contactMail, contactReplyMail, projectMail, renderDigest, type DigestGroup } from './templates.ts';
import type { Brand } from '../brand/brand.ts';
import { unsubscribeHeaders, unsubscribePath } from './unsubscribe-links.ts';

export type NoticesDeps = {
  db: Db;
  config: Pick<MailConfig, 'PUBLIC_URL' | 'CONTACT_NOTIFY_TO'>;
  logger: Logger;
  now: () => number;
  canSend: boolean;
  site: { name: string; brand: Pick<Brand, 'colors' | 'tagline' | 'page'> };
  i18n: i18n;
  preferences: Pick<MailPreferencesStore, 'many'>;
  unsubscribeKey: Buffer;
  contacts: Pick<ContactStore, 'setNotifyState'>;
  sender: Pick<Sender, 'enqueue' | 'settled'>;
};

export function createNotices(deps: NoticesDeps) {
  const { db, config, logger, now, canSend, site, i18n, preferences, unsubscribeKey, contacts, sender } = deps;
  const absolute = (path: string) => `${config.PUBLIC_URL}${path}`;
  const unsubscribeUrl = (user: Recipient, scope: UnsubscribeScope) => absolute(unsubscribePath(unsubscribeKey, user, scope));

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
          expert: notice.expert,
          version: notice.version,
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

  return {
    projectMails,

    async notifyProject(notice: ProjectNotice): Promise<void> {
      const about = { kind: notice.kind, projectId: notice.project.id };
      if (!canSend) {
        logger.info(about, 'project e-mail not sent (no SMTP_URL)');
        return;
      }
      try {
        await sender.enqueue([...(await projectMails(notice)).values()]);
      } catch (error) {
        logger.error({ err: error, ...about }, 'project e-mail could not be queued');
      }
    },

    digestMail(recipient: Recipient, groups: readonly DigestGroup[], more: number): QueuedMail | null {
      const url = linkFor(localePath('notifications', recipient.locale), { kind: 'digest', userName: recipient.userName });
      if (url === null) return null;
      const unsubscribe = unsubscribeUrl(recipient, 'digest');
      const rendered = renderDigest({ locale: recipient.locale, site, recipient, groups, more, url, unsubscribe }, i18n);
      return {
        ...queued('digest', recipient.email, recipient.locale, rendered, `digest:${recipient.userName}`),
        headers: unsubscribeHeaders(unsubscribe),
      };
    },

    async notifyContact(message: ContactMessage): Promise<void> {
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
        await sender.enqueue(mails);
        if (mails.length === 0) await sender.settled({ ref });
      } catch (error) {
        logger.error({ err: error, ...about }, 'contact e-mail could not be queued');
        await contacts.setNotifyState(message.id, { status: 'failed', attempts: 0, error: errorText(error) }).catch(() => {});
      }
    },

    contactReplyMail({ message, replyId, author, text }: ReplyMailInput): QueuedMail {
      const rendered = contactReplyMail(
        {
          locale: message.locale,
          site,
          message,
          author,
          text,
          replyTo: site.brand.page.email,
          url: absolute(localePath('Contact', message.locale)),
        },
        i18n,
      );
      // An answer from the company: the sender's reply goes to the company's address.
      return { ...queued('contact_reply', message.email, message.locale, rendered, replyRef(replyId)), replyTo: site.brand.page.email };
    },

    async sendAccountMail(mail: AccountMail): Promise<void> {
      if (!canSend) throw new Error(`e-mail ${mail.kind} not sent: the site has no mail server (SMTP_URL)`);
      const url = linkFor(mail.path, { kind: mail.kind, ref: mail.ref });
      if (url === null) throw new Error(`e-mail ${mail.kind} not sent: its link is not a local path`);
      const { to, path: _path, ref, ...input } = mail;
      const rendered = accountMail({ ...input, site, url }, i18n);
      // A reset or a confirmation waits for no notice: security e-mails are sent before every notice that is due.
      await sender.enqueue([{ ...queued(mail.kind, to, mail.locale, rendered, ref), priority: 'security' }]);
    },
  };
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

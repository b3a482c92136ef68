// Every e-mail of the site, rendered once when it is queued, as HTML and as plain text: the
// site's name and tagline on a bar of the brand colour (brand/brand.json), a greeting, what
// happened, a link, and a footer that says why the reader got it and how to reach the company.
// Inline styles only and nothing loaded from elsewhere (no images — so no logo —, fonts or
// style sheets): mail programs block remote content, and a remote image would tell a third party
// who opened the mail. Every value is escaped for the HTML part. The words are those of
// locales/<lng>/mail.json, plain text like every value (i18next does not escape: the layout does).
import type { i18n } from 'i18next';
import type esMail from '../../locales/es/mail.json';
import { readableTextColor } from '../../shared/branding.ts';
import type { Brand } from '../brand/brand.ts';
import type { ContactMessage } from '../../shared/contact.ts';
import { languageName, type Locale } from '../../shared/locales.ts';
import { nameIn, namespaceT, type NamespaceT } from '../i18n/index.ts';
import { escapeHtml } from '../http/html.ts';
import { formatDay } from '../pdf/i18n.ts';
import { localTime } from '../calendar/days.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';

export type { ProjectNoticeKind } from '../projects/notices.ts';
import type { ProjectNoticeKind } from '../projects/notices.ts';
import { TOPIC_OF_KIND, type UnsubscribeScope } from '../../shared/mail-preferences.ts';

/** The words of the e-mails in one language (locales/<lng>/mail.json), by i18next's getFixedT. */
export type MailT = NamespaceT<typeof esMail>;

export function mailT(i18n: i18n, locale: Locale): MailT {
  return namespaceT<typeof esMail>(i18n, locale, 'mail');
}

/** The reader's greeting, by name when there is one. */
export function greeting(t: MailT, name: string | null): string {
  return name ? t('greeting', { context: 'named', name }) : t('greeting');
}

export type RenderedMail = { subject: string; text: string; html: string };

/** What every e-mail says, in plain text; the layout makes both parts of it. */
export type MailContent = {
  subject: string;
  greeting: string;
  lead: string;
  /** Label and value pairs (the contact message's sender and subject). */
  details?: readonly (readonly [string, string])[];
  /** Someone's own words (a message, an excerpt), shown apart. */
  quote?: string;
  /** A sentence after the quote (how to reply). */
  after?: string;
  /** Groups of lines under a heading (a digest's projects). */
  sections?: readonly { heading: string; lines: readonly string[] }[];
  action: { label: string; url: string };
  footer: readonly string[];
  /** How to stop this kind of e-mail: a sentence with `{{url}}` where the link goes, and its URL. */
  unsubscribe?: { sentence: string; url: string } | undefined;
};

/** Where the unsubscribe sentence puts its link. */
const URL_SLOT = '\u0000url\u0000';

/** The company as its e-mails show it: the name (SITE_NAME) and, from brand/, colours (the bar's is the brand's primary), tagline and contact details. */
export type Site = { name: string; brand: Pick<Brand, 'colors' | 'tagline' | 'page'> };

const PAGE = '#f3f5f6';
const INK = '#1f2a2e';
const MUTED = '#55646a';

/** The colours of a site's e-mails: the bar in the primary colour, links in the accent (it reads on white). */
function paletteOf(site: Site) {
  const brand = site.brand.colors.primary;
  return { brand, onBrand: readableTextColor(brand), link: site.brand.colors.accent };
}

/** The company's contact details (address, phone, e-mail), as lines. */
function contactLines(site: Site, locale: Locale): string[] {
  const page = site.brand.page;
  return [page.address[locale].join(', '), `${page.phone.text} · ${page.email}`];
}
const FONT = 'Montserrat, Arial, Helvetica, sans-serif';
const MAX_SUBJECT = 200;

/** One line, at most MAX_SUBJECT characters: a subject is a header. */
function subjectLine(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUBJECT ? `${line.slice(0, MAX_SUBJECT - 1)}…` : line;
}

/** Escaped, with its line breaks kept. */
function paragraphHtml(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, '<br>');
}

function textPart(content: MailContent, site: Site, locale: Locale): string {
  const tagline = site.brand.tagline[locale];
  const lines = [site.name, ...(tagline ? [tagline] : []), '', content.greeting, '', content.lead, ''];
  if (content.details) {
    for (const [label, value] of content.details) lines.push(`${label}: ${value}`);
    lines.push('');
  }
  if (content.quote !== undefined) lines.push(...content.quote.split(/\r?\n/).map((line) => `> ${line}`.trimEnd()), '');
  if (content.sections) {
    for (const section of content.sections) lines.push(section.heading, ...section.lines.map((line) => `- ${line}`), '');
  }
  if (content.after) lines.push(content.after, '');
  lines.push(`${content.action.label}: ${content.action.url}`, '', '-- ', ...content.footer);
  if (content.unsubscribe) {
    const { url } = content.unsubscribe;
    lines.push(
      '',
      content.unsubscribe.sentence.replaceAll(URL_SLOT, () => url),
    );
  }
  const contact = contactLines(site, locale);
  if (contact.length > 0) lines.push('', site.name, ...contact);
  return `${lines.join('\n')}\n`;
}

/** The footer's unsubscribe sentence, its link in place of URL_SLOT (escaped once, whatever the URL holds). */
function unsubscribeHtml(unsubscribe: MailContent['unsubscribe'], link: string, p: (html: string, style?: string) => string): string {
  if (!unsubscribe) return '';
  const url = escapeHtml(unsubscribe.url);
  const anchor = `<a href="${url}" style="color:${link};word-break:break-all;">${url}</a>`;
  return p(
    paragraphHtml(unsubscribe.sentence).replaceAll(escapeHtml(URL_SLOT), () => anchor),
    'margin:16px 0 0;',
  );
}

function htmlPart(content: MailContent, site: Site, locale: Locale): string {
  const { brand: BRAND, onBrand: ON_BRAND, link: LINK } = paletteOf(site);
  const p = (html: string, style = '') => `<p style="margin:0 0 16px;${style}">${html}</p>`;
  const tagline = site.brand.tagline[locale];
  const page = site.brand.page;
  // How to reach the company: mailto: and tel: links, no URL of the web (the e-mail's one link is its action).
  const contact = p(
    `<strong style="color:${INK};">${escapeHtml(site.name)}</strong><br>${escapeHtml(page.address[locale].join(', '))}<br>` +
      `<a href="${escapeHtml(page.phone.href)}" style="color:${LINK};">${escapeHtml(page.phone.text)}</a> · ` +
      `<a href="mailto:${escapeHtml(page.email)}" style="color:${LINK};">${escapeHtml(page.email)}</a>`,
    'margin:16px 0 0;',
  );
  const url = escapeHtml(content.action.url);
  const details = content.details
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse;">${content.details
        .map(
          ([label, value]) =>
            `<tr><td style="padding:2px 12px 2px 0;color:${MUTED};vertical-align:top;">${escapeHtml(label)}</td>` +
            `<td style="padding:2px 0;vertical-align:top;">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const quote =
    content.quote !== undefined
      ? `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${BRAND};background-color:${PAGE};">${paragraphHtml(content.quote)}</blockquote>`
      : '';
  return [
    '<!doctype html>',
    `<html lang="${locale}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${escapeHtml(content.subject)}</title>`,
    '</head>',
    `<body style="margin:0;padding:0;background-color:${PAGE};">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background-color:${PAGE};">`,
    '<tr><td align="center" style="padding:24px 12px;">',
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background-color:#ffffff;font-family:${FONT};font-size:16px;line-height:1.5;color:${INK};">`,
    `<tr><td style="background-color:${BRAND};color:${ON_BRAND};padding:16px 24px;">` +
      `<div style="font-size:20px;font-weight:bold;">${escapeHtml(site.name)}</div>` +
      (tagline ? `<div style="font-size:13px;margin-top:2px;">${escapeHtml(tagline)}</div>` : '') +
      '</td></tr>',
    '<tr><td style="padding:24px;">',
    p(paragraphHtml(content.greeting)),
    p(paragraphHtml(content.lead)),
    details,
    quote,
    (content.sections ?? [])
      .map(
        (section) =>
          p(`<strong>${escapeHtml(section.heading)}</strong>`, 'margin:0 0 4px;') +
          `<ul style="margin:0 0 16px;padding-left:20px;">${section.lines.map((line) => `<li style="margin:0 0 4px;">${paragraphHtml(line)}</li>`).join('')}</ul>`,
      )
      .join(''),
    content.after ? p(paragraphHtml(content.after)) : '',
    p(
      `<a href="${url}" style="display:inline-block;background-color:${BRAND};color:${ON_BRAND};font-weight:bold;text-decoration:none;padding:12px 20px;">${escapeHtml(content.action.label)}</a>`,
      'margin-top:24px;',
    ),
    p(`<a href="${url}" style="color:${LINK};word-break:break-all;">${url}</a>`, `font-size:13px;color:${MUTED};`),
    '</td></tr>',
    `<tr><td style="padding:16px 24px;border-top:1px solid #e1e6e8;font-size:13px;color:${MUTED};">`,
    content.footer.map((line, i) => p(paragraphHtml(line), i === content.footer.length - 1 ? 'margin:0;' : '')).join(''),
    unsubscribeHtml(content.unsubscribe, LINK, p),
    contact,
    '</td></tr>',
    '</table>',
    '</td></tr>',
    '</table>',
    '</body>',
    '</html>',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** The two parts of an e-mail (and its one-line subject). */
export function renderMail(content: MailContent, site: Site, locale: Locale): RenderedMail {
  const fixed = { ...content, subject: subjectLine(content.subject) };
  return { subject: fixed.subject, text: textPart(fixed, site, locale), html: htmlPart(fixed, site, locale) };
}

/** About `max` characters of someone's text, cut between words. */
export function excerptOf(value: string, max = 300): string {
  const text = value
    .replace(/\r\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The states a move's notice names in its own words (the others say "from → to"). */
const MOVE_NOTICES = ['active', 'declined', 'delivered', 'closed', 'cancelled'] as const;

export type ProjectMailInput = {
  kind: ProjectNoticeKind;
  locale: Locale;
  site: Site;
  recipient: { name: string | null; role: string };
  title: string;
  actor: string;
  from?: string | undefined;
  to?: string | undefined;
  milestone?: string | undefined;
  excerpt?: string | undefined;
  document?: string | undefined;
  due?: string | undefined;
  expert?: string | undefined;
  version?: number | undefined;
  url: string;
  /** The one-click link that stops this kind of e-mail (RFC 8058). */
  unsubscribe?: string | undefined;
};

/** The sentence of an unsubscribe link, with URL_SLOT where its link goes. */
function unsubscribeOf(t: MailT, scope: UnsubscribeScope, url: string | undefined): MailContent['unsubscribe'] {
  return url === undefined ? undefined : { sentence: `${t(`unsubscribe.${scope}`, { url: URL_SLOT })}\n${t('unsubscribe.settings')}`, url };
}

export function projectMail(input: ProjectMailInput, i18n: i18n): RenderedMail {
  const t = mailT(i18n, input.locale);
  // A move says what someone did ("Ana marked the work as delivered — please review and confirm"), by the state it reached.
  const reached = input.kind === 'state_changed' ? MOVE_NOTICES.find((state) => state === input.to) : undefined;
  const notice = reached ? (`notices.state_changed.to.${reached}` as const) : (`notices.${input.kind}` as const);
  // The recipient's role is the context: a notice may say it another way to one role (expert_assigned_CONS).
  const words = {
    context: input.recipient.role,
    title: input.title,
    actor: input.actor,
    milestone: input.milestone ?? '',
    document: input.document ?? '',
    due: input.due ? formatDay(input.due, input.locale) : '',
    expert: input.expert ?? t('notices.expert_assigned.anExpert'),
    versionNote: input.version ? t('notices.proposal_sent.versionNote', { version: input.version }) : '',
    from: nameIn(i18n, input.locale, 'projects.states', input.from ?? ''),
    to: nameIn(i18n, input.locale, 'projects.states', input.to ?? ''),
  };
  const site = input.site.name;
  const content: MailContent = {
    subject: t(`${notice}.subject`, words),
    greeting: greeting(t, input.recipient.name),
    lead: t(`${notice}.lead`, words),
    ...(input.kind === 'message_posted' && input.excerpt ? { quote: excerptOf(input.excerpt) } : {}),
    action: { label: t(`${notice}.action`, { context: input.recipient.role }), url: input.url },
    footer: [
      input.kind === 'milestone_due' || input.kind === 'milestone_overdue'
        ? t('footer.reminder', { title: input.title, site })
        : input.recipient.role === 'ADMIN'
          ? t('footer.admin', { site })
          : t('footer.participant', { title: input.title, site }),
      t('noReply'),
    ],
    unsubscribe: unsubscribeOf(t, TOPIC_OF_KIND[input.kind], input.unsubscribe),
  };
  return renderMail(content, input.site, input.locale);
}

/** One line of a digest: a notification as it was recorded (a notice's facts). */
export type DigestItem = Pick<
  ProjectMailInput,
  'kind' | 'actor' | 'from' | 'to' | 'milestone' | 'excerpt' | 'document' | 'due' | 'expert' | 'version'
>;

/** A project's lines in a digest, oldest first. */
export type DigestGroup = { title: string; items: readonly DigestItem[] };

export type DigestInput = {
  locale: Locale;
  site: Site;
  recipient: { name: string | null };
  groups: readonly DigestGroup[];
  /** Notifications past the digest's length, told as a count. */
  more: number;
  url: string;
  unsubscribe: string;
};

/** The daily digest: everything since the last one, grouped by project, in the reader's language. */
export function renderDigest(input: DigestInput, i18n: i18n): RenderedMail {
  const t = mailT(i18n, input.locale);
  const site = input.site.name;
  const count = input.groups.reduce((sum, group) => sum + group.items.length, 0) + input.more;
  const line = (item: DigestItem) =>
    t(`digest.items.${item.kind}`, {
      actor: item.actor,
      milestone: item.milestone ?? '',
      document: item.document ?? '',
      expert: item.expert ?? '',
      version: item.version ?? '',
      // Who was assigned, which version was sent: said when the notification recorded it (older ones did not).
      ...(item.expert || item.version ? { context: 'detail' } : {}),
      excerpt: item.excerpt ? excerptOf(item.excerpt.replace(/\s+/g, ' '), 120) : '',
      due: item.due ? formatDay(item.due, input.locale) : '',
      from: nameIn(i18n, input.locale, 'projects.states', item.from ?? ''),
      to: nameIn(i18n, input.locale, 'projects.states', item.to ?? ''),
    });
  const content: MailContent = {
    subject: t('digest.subject', { count }),
    greeting: greeting(t, input.recipient.name),
    lead: t('digest.lead', { site }),
    sections: input.groups.map((group) => ({ heading: group.title, lines: group.items.map(line) })),
    ...(input.more > 0 ? { after: t('digest.more', { count: input.more }) } : {}),
    action: { label: t('digest.action'), url: input.url },
    footer: [t('noReply')],
    unsubscribe: unsubscribeOf(t, 'digest', input.unsubscribe),
  };
  return renderMail(content, input.site, input.locale);
}

export type ContactMailInput = {
  locale: Locale;
  site: Site;
  /** null: the CONTACT_NOTIFY_TO address, which has no name. */
  recipient: { name: string } | null;
  message: Pick<ContactMessage, 'name' | 'email' | 'company' | 'subject' | 'message' | 'locale'>;
  url: string;
};

export function contactMail(input: ContactMailInput, i18n: i18n): RenderedMail {
  const t = mailT(i18n, input.locale);
  const { message } = input;
  const site = input.site.name;
  const content: MailContent = {
    subject: t('contact.subject', { subject: message.subject }),
    greeting: greeting(t, input.recipient?.name ?? null),
    lead: t('contact.lead', { name: message.name, site, language: languageName(message.locale, input.locale) }),
    details: [
      [t('contact.fields.name'), message.name],
      [t('contact.fields.email'), message.email],
      ...(message.company ? [[t('contact.fields.company'), message.company] as const] : []),
      [t('contact.fields.subject'), message.subject],
    ],
    quote: message.message,
    after: t('contact.reply', { email: message.email }),
    action: { label: t('contact.action'), url: input.url },
    footer: [input.recipient ? t('contact.footer.admin', { site }) : t('contact.footer.address', { site })],
  };
  return renderMail(content, input.site, input.locale);
}

export type ContactReplyMailInput = {
  /** The language the sender wrote in. */
  locale: Locale;
  site: Site;
  message: Pick<ContactMessage, 'name' | 'subject' | 'createdAt'>;
  /** Who answers (their name), and what they wrote. */
  author: string;
  text: string;
  /** Where a reply to this e-mail goes: the company's address (brand/), never the admin's own. */
  replyTo: string;
  /** The contact page, to write again. */
  url: string;
};

/** An admin's answer to a contact message, from the console, to the address the sender gave. */
export function contactReplyMail(input: ContactReplyMailInput, i18n: i18n): RenderedMail {
  const t = mailT(i18n, input.locale);
  const { message } = input;
  const site = input.site.name;
  const day = localTime(Date.parse(message.createdAt), COMPANY_TIME_ZONE).day;
  const content: MailContent = {
    subject: t('contactReply.subject', { subject: message.subject }),
    greeting: greeting(t, message.name),
    lead: t('contactReply.lead', { author: input.author, site, subject: message.subject }),
    quote: input.text,
    after: t('contactReply.after', { date: formatDay(day, input.locale), email: input.replyTo }),
    action: { label: t('contactReply.action'), url: input.url },
    footer: [t('contactReply.footer', { site })],
  };
  return renderMail(content, input.site, input.locale);
}

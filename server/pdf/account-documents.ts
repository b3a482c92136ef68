// The account's documents: the user's own profile and the two admin reports (users, contact
// messages), each laid out in the shared frame (documents.ts); texts, dates and numbers follow
// the locale.
import {
  documentFrame,
  fullName,
  keepHeadsWithBodies,
  labelTableLayout,
  MAX_CELL_CHARS,
  MAX_KEPT_HEADS,
  MAX_MESSAGE_CHARS,
  messageText,
  MUTED_COLOR,
  oneLine,
  PROFILE_WIDTHS,
  render,
  reportTableLayout,
  settingsOf,
  TEXT_COLOR,
  type Content,
  type PdfContext,
  type PdfMessage,
  type PdfRenderOptions,
  type PdfUser,
  type ReportContext,
  type TableCell,
} from './documents.ts';
import { formatCoverage, formatStoredDate, formatStoredDateTime, roleName, type Coverage } from './i18n.ts';

/** A message this small (a third of a page at most) is kept on one page. */
const SHORT_MESSAGE_CHARS = 900;
const SHORT_MESSAGE_LINES = 12;
// Node ids that let keepHeadWithBody find a message and its text in pdfmake's layout.
const MESSAGE_ID = 'message-block-';
const MESSAGE_BODY_ID = 'message-text-';
// Column widths in percentages (documents.ts PROFILE_WIDTHS says why).
const USERS_WIDTHS = ['15%', '23%', '28%', '11%', '10%', '13%'];
/** Permissions listed in the profile; more would only be noise (and pages). */
const MAX_SCOPES = 50;

/** The signed-in user's own profile: only the user passed in, nothing else from the database. */
export async function renderProfilePdf(user: PdfUser, ctx: PdfContext, options: PdfRenderOptions = {}): Promise<Buffer> {
  const settings = settingsOf(ctx);
  const { locale, t } = settings;
  const email = oneLine(user.email);
  const scope = (Array.isArray(user.scope) ? user.scope.slice(0, MAX_SCOPES) : []).map((s) => oneLine(s, 60)).filter(Boolean);
  const rows: [string, string][] = [
    [t('fields.userName'), oneLine(user.userName)],
    [t('fields.name'), oneLine(user.name)],
    [t('fields.lastName'), oneLine(user.lastName)],
    [t('fields.email'), email ? email : t('noEmail')],
    [t('fields.role'), roleName(oneLine(user.role, 40), locale)],
    [t('fields.scope'), scope.length > 0 ? scope.join(', ') : t('noScope')],
    [t('fields.status'), user.disabled ? t('disabled') : t('active')],
  ];
  if (user.createdAt) rows.push([t('fields.createdAt'), formatStoredDate(oneLine(user.createdAt, 40), locale)]);
  const subject = t('profile.subject', { site: settings.siteName });
  // The avatar is not drawn: it would mean reading an uploaded file or URL, which pdfmake is denied.
  const content: Content = [
    { text: fullName(user) || oneLine(user.userName), style: 'heading' },
    { text: subject, style: 'lead' },
    {
      table: {
        widths: PROFILE_WIDTHS,
        body: rows.map(([label, value]) => [{ text: label, style: 'label' }, { text: value }]),
      },
      layout: labelTableLayout(7),
    },
  ];
  return render(documentFrame({ settings, title: t('profile.title'), subject, content, options }));
}

/** The part a report covers: the caller's, or all the items passed in. */
function coverageOf(ctx: ReportContext, count: number): Coverage {
  const part = ctx.part;
  if (!part) return { first: count === 0 ? 0 : 1, last: count, total: count };
  return { first: part.first, last: part.last, total: part.total, from: part.from, to: part.to };
}

/**
 * Admin report of the users passed in (one page of the list: see ctx.part), one row each, the
 * header row repeated on every page.
 */
export async function renderUsersReportPdf(users: PdfUser[], ctx: ReportContext, options: PdfRenderOptions = {}): Promise<Buffer> {
  const settings = settingsOf(ctx);
  const { locale, t } = settings;
  const columns = ['userName', 'fullName', 'email', 'role', 'status', 'createdAt'] as const;
  const header: TableCell[] = columns.map((column) => ({
    text: t(`fields.${column}`),
    style: 'tableHeader',
  }));
  const body: TableCell[][] = users.map((user) => {
    const email = oneLine(user.email, MAX_CELL_CHARS);
    return [
      { text: oneLine(user.userName, MAX_CELL_CHARS), bold: true },
      { text: oneLine(fullName(user), MAX_CELL_CHARS) },
      email ? { text: email } : { text: t('noEmail'), color: MUTED_COLOR },
      { text: roleName(oneLine(user.role, 40), locale) },
      user.disabled ? { text: t('disabled'), color: MUTED_COLOR } : { text: t('active') },
      { text: user.createdAt ? formatStoredDate(oneLine(user.createdAt, 40), locale) : '' },
    ];
  });
  const content: Content = [
    { text: t('users.title'), style: 'heading' },
    { text: formatCoverage('users', coverageOf(ctx, users.length), locale), style: 'lead' },
    users.length === 0
      ? { text: t('noUsers') }
      : {
          table: { headerRows: 1, dontBreakRows: true, widths: USERS_WIDTHS, body: [header, ...body] },
          layout: reportTableLayout(settings.brand),
        },
  ];
  // Landscape: six columns, two of them (name, e-mail) often long.
  return render(
    documentFrame({
      settings,
      title: t('users.title'),
      subject: t('users.subject', { site: settings.siteName }),
      content,
      pageOrientation: 'landscape',
      options,
    }),
  );
}

/**
 * Admin report of contact messages (one page of the inbox: see ctx.part), in the order given
 * (the caller's query sorts them). The unread count is the part's (all its pages) when given.
 */
export async function renderMessagesReportPdf(messages: PdfMessage[], ctx: ReportContext, options: PdfRenderOptions = {}): Promise<Buffer> {
  const settings = settingsOf(ctx);
  const { locale, t, brand } = settings;
  const unread = ctx.part?.unread ?? messages.filter((m) => !m.read).length;
  const count = formatCoverage('messages', coverageOf(ctx, messages.length), locale);
  const blocks: Content[] = messages.map((message, index) => {
    const original = typeof message.message === 'string' ? message.message : String(message.message ?? '');
    const length = typeof message.length === 'number' && message.length > original.length ? message.length : original.length;
    const { text, shortened } = messageText(original, MAX_MESSAGE_CHARS);
    const cut = shortened || length > MAX_MESSAGE_CHARS;
    const short = text.length <= SHORT_MESSAGE_CHARS && text.split('\n').length <= SHORT_MESSAGE_LINES;
    const barWidth = message.read ? 1.5 : 3;
    return {
      id: `${MESSAGE_ID}${index}`,
      // A short message moves to the next page whole; a long one may break, see keepHeadWithBody.
      unbreakable: short,
      margin: [0, 0, 0, 12],
      table: {
        widths: ['100%'],
        body: [
          [
            {
              stack: [
                {
                  columns: [
                    { text: oneLine(message.subject), bold: true, fontSize: 10.5, width: '82%' },
                    {
                      text: message.read ? t('read') : t('unread'),
                      bold: !message.read,
                      color: message.read ? MUTED_COLOR : TEXT_COLOR,
                      fontSize: 8.5,
                      width: '18%',
                      alignment: 'right',
                      margin: [10, 1, 0, 0],
                    },
                  ],
                },
                {
                  text: [
                    { text: `${formatStoredDateTime(oneLine(message.createdAt, 40), locale)} · ${t('messageFrom')} ` },
                    { text: oneLine(message.name), bold: true },
                    ` <${oneLine(message.email)}>`,
                  ],
                  fontSize: 8.5,
                  color: MUTED_COLOR,
                  margin: [0, 2, 0, 6],
                },
                { id: `${MESSAGE_BODY_ID}${index}`, text },
                ...(cut
                  ? [
                      {
                        text: t('truncated', { count: length }),
                        fontSize: 8,
                        color: MUTED_COLOR,
                        margin: [0, 4, 0, 0] as [number, number, number, number],
                      },
                    ]
                  : []),
              ],
            },
          ],
        ],
      },
      // A bar in the brand colour left of each message, thicker when unread; the padding
      // makes up the difference so that all texts line up.
      layout: {
        hLineWidth: () => 0,
        vLineWidth: (i: number) => (i === 0 ? barWidth : 0),
        vLineColor: () => brand,
        paddingLeft: () => 13 - barWidth,
        paddingRight: () => 0,
        paddingTop: () => 2,
        paddingBottom: () => 2,
      },
    };
  });
  const lead = unread > 0 ? `${count} · ${t('unreadCount', { count: unread })}` : count;
  const content: Content = [
    { text: t('messages.title'), style: 'heading' },
    { text: lead, style: 'lead' },
    ...(messages.length === 0 ? [{ text: t('noMessages') }] : blocks),
  ];
  return render(
    documentFrame({
      settings,
      title: t('messages.title'),
      subject: t('messages.subject', { site: settings.siteName }),
      content,
      options,
      pageBreakBefore: keepHeadsWithBodies(MAX_KEPT_HEADS, messageBodyOf),
    }),
  );
}

/**
 * A long message's subject and sender stay with its text. Short messages are unbreakable, so
 * this only costs a re-layout for long ones that would be split.
 */
const messageBodyOf = (id: string) => (id.startsWith(MESSAGE_ID) ? `${MESSAGE_BODY_ID}${id.slice(MESSAGE_ID.length)}` : null);

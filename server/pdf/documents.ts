// What every PDF document rendered on the server with pdfmake shares: its types, the frame
// (Montserrat embedded — Regular, Bold, Black —, the header band in the site's branding colour
// with the brand's logo beside the name, the footer with the company's contact details, brand/),
// the text limits, the table layouts and the file names. The documents themselves are
// account-documents.ts (the profile, the users and messages reports) and project-documents.ts.
import { isHexColor, readableTextColor, sixDigitHex } from '../../shared/branding.ts';
import { defaultLocale, isLocale, type Locale } from '../../shared/locales.ts';
import { BODY_FONT, DISPLAY_FONT, pdfmakeWithFonts, type PdfMake } from './fonts.ts';
import { formatDateTime, INTL_LOCALE, isoDay, pdfT, type Coverage, type PdfT } from './i18n.ts';

export type PdfUser = {
  userName: string;
  name: string;
  lastName: string;
  role: string;
  email?: string | null;
  avatar?: string | null;
  scope?: string[];
  disabled?: boolean;
  createdAt?: string;
};

export type PdfMessage = {
  id: number;
  name: string;
  email: string;
  subject: string;
  /** The text, possibly already cut by the query (see `length`). */
  message: string;
  createdAt: string;
  read: boolean;
  /** Characters of the stored message when the query cut it; the note on a shortened message gives this. */
  length?: number;
};

/** The company in its documents (server/brand/): the logo's two variants and the contact details. */
export type PdfBrand = {
  /** The logo for light bands (dark ink) and for dark ones (light ink), as SVG. */
  logos: { light: string; dark: string };
  /** Address · phone · e-mail, in the document's language. */
  contact: string;
};

export type PdfContext = {
  locale: Locale;
  siteName: string;
  /** Hex colour of the header band (#rgb or #rrggbb); anything else falls back to `defaultColor`. */
  brandColor: string;
  /** The brand's primary colour (brand/brand.json): the band's when `brandColor` is not a colour. */
  defaultColor: string;
  /** The logo beside the name and the contact details in the footer; none: the name alone. */
  brand?: PdfBrand;
  /** When the document was made; defaults to now. Fixed in tests. */
  generatedAt?: Date;
};

/**
 * A report's context: what part of the list it covers, said on its first page. Without a part
 * the report covers exactly the items passed in (1–n of n).
 */
export type ReportContext = PdfContext & { part?: (Coverage & { unread?: number | undefined }) | undefined };

/** Not for callers in the app: `compress: false` leaves content streams readable, for tests. */
export type PdfRenderOptions = { compress?: boolean };

export type DocDefinition = Parameters<PdfMake['createPdf']>[0];
export type Content = DocDefinition['content'];
export type TableCell = { text: string } & Record<string, unknown>;

// Inputs come from the database and from visitors (contact form): cap them so that one huge
// field cannot make a document of hundreds of pages or stall the event loop in layout.
const MAX_FIELD_CHARS = 300;
const MAX_SITE_NAME_CHARS = 40;
/** The limit for a contact message in the report; the full text stays in the database. */
export const MAX_MESSAGE_CHARS = 5000;
/**
 * Line breaks kept in a message: after the 60th the rest of the text runs on (breaks become
 * spaces). A message of 2,500 one-letter lines was 54 pages on its own: with this (and the piece
 * limit below) a message is at most about three pages whatever its shape, and a report's size
 * follows its number of messages.
 */
export const MAX_MESSAGE_LINES = 60;
/**
 * pdfmake lays the whole document out again for every page break keepHeadWithBody asks for:
 * a few per document keep the common case tidy, and a crafted inbox (a head at the foot of
 * every page) cannot make a report cost one layout per message.
 */
export const MAX_KEPT_HEADS = 3;
/**
 * Pieces of a message's text, pdfmake's unit of work and memory: it lays text out word by word,
 * a few hundred bytes of heap for each, until the document is written. Prose of 5,000 characters
 * has about 900; "a a a …" or Chinese (a piece per character) have up to 5,000, and 50 of those
 * filled the layout thread's heap. Past this many the message is cut (and marked as shortened).
 */
export const MAX_MESSAGE_PIECES = 1200;
/**
 * Where a piece may end, counted on the safe side (every place pdfmake's line breaker may break
 * and more): spaces, punctuation and symbols, and each character of the scripts written without
 * spaces.
 */
const PIECE_END =
  /[^\p{L}\p{M}\p{N}]|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}\p{Script=Yi}]/gu;
/** Unbroken runs in a message longer than a line of ordinary text are cut into lines this long. */
const LONG_RUN = /\S{81,}/g;
const RUN_PIECE = /\S{1,80}/gu;

const PAGE_MARGIN_X = 40;
// Column widths in percentages, never '*' or 'auto': those grow to the longest word (a pasted
// URL) and push the table off the page, while a fixed width lets pdfmake cut that word.
export const PROFILE_WIDTHS = ['30%', '70%'];

/** The layout of a two-column table of labels and values: labels shaded, thin rules, `vertical` points above and below each row. */
export function labelTableLayout(vertical: number) {
  return {
    fillColor: (_row: number, _node: unknown, column: number) => (column === 0 ? ZEBRA_COLOR : null),
    hLineWidth: () => 0.5,
    vLineWidth: () => 0,
    hLineColor: () => RULE_COLOR,
    paddingLeft: () => 8,
    paddingRight: () => 8,
    paddingTop: () => vertical,
    paddingBottom: () => vertical,
  };
}
/** A report row stays short enough to move to the next page whole (dontBreakRows). */
export const MAX_CELL_CHARS = 120;
const BAND_HEIGHT = 64;
/** The logo on the band, in points. */
const LOGO_SIZE = 32;
const FOOTER_LINE_MARGIN: [number, number, number, number] = [0, 0, 0, 4];
export const TEXT_COLOR = '#1f2933';
export const MUTED_COLOR = '#5f6b76';
export const RULE_COLOR = '#d9dee3';
export const ZEBRA_COLOR = '#f4f6f8';

/** The colour if it is a valid hex one, else `fallback` (the brand's primary); #rgb is widened for pdfkit and the contrast check. */
export function safeBrandColor(value: unknown, fallback: string): string {
  const color = isHexColor(value) ? value : fallback;
  return sixDigitHex(color);
}

function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  let cut = value.slice(0, max);
  // Never leave half of a surrogate pair (an emoji) at the end.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** One line of plain text: control characters and line breaks become spaces, then capped. */
export function oneLine(value: unknown, max = MAX_FIELD_CHARS): string {
  const text = typeof value === 'string' ? value : value == null ? '' : String(value);
  // Cap before the regex so a megabyte-long field costs no more than a short one.
  return truncate(
    text
      .slice(0, max * 2)
      .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
      .trim(),
    max,
  );
}

/**
 * A message's text as the report shows it: line breaks kept (MAX_MESSAGE_LINES of them), other
 * control characters dropped, blank runs shortened, cut at `max` characters or MAX_MESSAGE_PIECES
 * pieces, whichever comes first; `shortened` when anything was cut.
 */
export function messageText(value: string, max: number): { text: string; shortened: boolean } {
  const cleaned = value
    .slice(0, max * 2)
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[^\P{Cc}\n]/gu, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const text = truncate(cleaned, max);
  let breaks = 0;
  const lines = text.replace(/\n/g, () => (++breaks > MAX_MESSAGE_LINES ? ' ' : '\n'));
  // pdfmake cuts a word wider than the line by bisecting it, re-measuring the whole rest of
  // the word each time: a 5,000-character token took seconds. Short pieces keep that cheap.
  const split = lines.replace(LONG_RUN, (run) => run.match(RUN_PIECE)!.join('\n'));
  let pieces = 0;
  let cutAt = -1;
  for (const match of split.matchAll(PIECE_END)) {
    // The text up to the limit-th end holds `limit` pieces, the last one without its end.
    if (++pieces >= MAX_MESSAGE_PIECES) {
      cutAt = match.index;
      break;
    }
  }
  if (cutAt === -1) return { text: split, shortened: cleaned.length > max };
  return { text: `${split.slice(0, cutAt).trimEnd()}…`, shortened: true };
}

/** The context as the documents use it: a known locale and its words, a safe colour, a capped site name, a valid date. */
export type Settings = { locale: Locale; t: PdfT; siteName: string; brand: string; generatedAt: Date; identity: PdfBrand | null };

export function settingsOf(ctx: PdfContext): Settings {
  // The types promise a locale, but it often comes from a request: never ask for junk.
  const locale = isLocale(ctx.locale) ? ctx.locale : defaultLocale;
  return {
    locale,
    t: pdfT(locale),
    siteName: oneLine(ctx.siteName, MAX_SITE_NAME_CHARS),
    brand: safeBrandColor(ctx.brandColor, ctx.defaultColor),
    generatedAt: ctx.generatedAt instanceof Date && !Number.isNaN(ctx.generatedAt.getTime()) ? ctx.generatedAt : new Date(),
    identity: ctx.brand ? { logos: ctx.brand.logos, contact: oneLine(ctx.brand.contact) } : null,
  };
}

export function fullName(user: PdfUser): string {
  return oneLine([user.name, user.lastName].filter(Boolean).join(' '));
}

type Frame = {
  settings: Settings;
  title: string;
  subject: string;
  content: Content;
  pageOrientation?: 'portrait' | 'landscape';
  pageBreakBefore?: DocDefinition['pageBreakBefore'];
  options: PdfRenderOptions;
};

/** What all three documents share: metadata, fonts, the header band, the footer with page numbers. */
export function documentFrame({
  settings,
  title,
  subject,
  content,
  pageOrientation = 'portrait',
  pageBreakBefore,
  options,
}: Frame): DocDefinition {
  const { locale, t, siteName, brand, generatedAt, identity } = settings;
  const onBrand = readableTextColor(brand);
  // The variant that reads on the band: dark ink where dark text does, light ink where white does.
  const logo = identity ? identity.logos[onBrand === '#ffffff' ? 'dark' : 'light'] : null;
  const generated = t('generatedAt', { date: formatDateTime(generatedAt, locale) });
  return {
    pageSize: 'A4',
    pageOrientation,
    pageMargins: [PAGE_MARGIN_X, BAND_HEIGHT + 28, PAGE_MARGIN_X, identity ? 62 : 52],
    // 1.7 rather than pdfmake's default 1.3: /Lang and DisplayDocTitle are PDF 1.4 features.
    version: '1.7',
    compress: options.compress ?? true,
    language: INTL_LOCALE[locale],
    displayTitle: true,
    info: {
      title,
      author: siteName,
      subject,
      creator: siteName,
      producer: 'pdfmake',
      creationDate: generatedAt,
    },
    defaultStyle: { font: BODY_FONT, fontSize: 9.5, lineHeight: 1.25, color: TEXT_COLOR },
    styles: {
      heading: { font: BODY_FONT, bold: true, fontSize: 17, margin: [0, 0, 0, 4] },
      lead: { fontSize: 10, color: MUTED_COLOR, margin: [0, 0, 0, 14] },
      label: { bold: true },
      tableHeader: { bold: true, fontSize: 9, color: onBrand },
    },
    // The band is drawn behind every page; the header puts the site name and title on it.
    background: (_page, pageSize) => ({ canvas: [{ type: 'rect', x: 0, y: 0, w: pageSize.width, h: BAND_HEIGHT, color: brand }] }),
    header: () => ({
      margin: [PAGE_MARGIN_X, logo ? 16 : 21, PAGE_MARGIN_X, 0],
      columns: [
        ...(logo ? [{ svg: logo, width: LOGO_SIZE, height: LOGO_SIZE }] : []),
        // Percentages, as for the tables: a long one-word site name wraps instead of running off the page.
        {
          text: siteName,
          font: DISPLAY_FONT,
          fontSize: 18,
          lineHeight: 1,
          color: onBrand,
          width: logo ? '56%' : '62%',
          ...(logo ? { margin: [10, 6, 0, 0] } : {}),
        },
        { text: title, bold: true, fontSize: 12, lineHeight: 1, color: onBrand, width: '38%', alignment: 'right', margin: [12, 5, 0, 0] },
      ],
    }),
    footer: (currentPage, pageCount) => ({
      margin: [PAGE_MARGIN_X, 18, PAGE_MARGIN_X, 0],
      stack: [
        ...(identity ? [{ text: `${siteName} · ${identity.contact}`, fontSize: 7.5, color: MUTED_COLOR, margin: FOOTER_LINE_MARGIN }] : []),
        {
          columns: [
            { text: generated, fontSize: 8, color: MUTED_COLOR, width: '*' },
            {
              text: t('page', { current: currentPage, total: pageCount }),
              fontSize: 8,
              color: MUTED_COLOR,
              width: 'auto',
              alignment: 'right',
            },
          ],
        },
      ],
    }),
    content,
    ...(pageBreakBefore ? { pageBreakBefore } : {}),
  };
}

export async function render(definition: DocDefinition): Promise<Buffer> {
  const pdfmake = await pdfmakeWithFonts();
  return pdfmake.createPdf(definition).getBuffer();
}

/** Header row in the brand colour, light rules between rows, zebra stripes to follow long rows. */
export function reportTableLayout(brand: string) {
  return {
    fillColor: (rowIndex: number) => (rowIndex === 0 ? brand : rowIndex % 2 === 0 ? ZEBRA_COLOR : null),
    hLineWidth: (i: number) => (i === 0 ? 0 : 0.5),
    vLineWidth: () => 0,
    hLineColor: () => RULE_COLOR,
    paddingLeft: () => 6,
    paddingRight: () => 6,
    paddingTop: () => 5,
    paddingBottom: () => 5,
  };
}

/**
 * A head must not sit alone at the foot of a page: break before it when its body starts on a
 * later page. `bodyOf` names the body of a head node by id (null: not a head). pdfmake lays the
 * document out again for every such break, so at most `maxBreaks` per document (one function
 * per document: it counts).
 */
export function keepHeadsWithBodies(maxBreaks: number, bodyOf: (id: string) => string | null) {
  let breaks = 0;
  return function keepHeadWithBody(
    node: { id?: string | undefined },
    queries: { getFollowingNodesOnPage: () => { id?: string | undefined }[] },
  ): boolean {
    const bodyId = breaks < maxBreaks && node.id ? bodyOf(node.id) : null;
    if (!bodyId) return false;
    if (queries.getFollowingNodesOnPage().some((following) => following.id === bodyId)) return false;
    breaks++;
    return true;
  };
}

/** ASCII slug for a file name: accents dropped, anything outside [a-z0-9] a hyphen, at most 40 characters. */
function slug(value: string): string {
  return value
    .slice(0, 200)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
}

export type PdfKind = 'profile' | 'users' | 'messages' | 'proposal' | 'report';

/**
 * "mi-perfil-ana-2026-11-22.pdf", "users-2026-11-22.pdf", "propuesta-12-data-platform-2026-11-22.pdf"…
 * (date in Madrid); `about` (a user name, a project's id and title) is slugged in after the kind.
 */
export function pdfFileName(kind: PdfKind, locale: Locale, date: Date, about?: string): string {
  const base = pdfT(isLocale(locale) ? locale : defaultLocale)(`fileNames.${kind}`);
  const who = about ? slug(about) : '';
  const day = isoDay(Number.isNaN(date.getTime()) ? new Date() : date);
  return `${[base, who, day].filter(Boolean).join('-')}.pdf`;
}

// The company's identity, read once at start from brand/ (the name is SITE_NAME's, from the
// environment): brand.json (tagline, contact details, legal facts, colours) validated with zod,
// and the two logo files checked. A mistake stops the start with a message that names the field
// or the file. Everything that shows the identity — pages, legal pages (company.ts), PDFs,
// e-mails, the offline page, the web manifest — gets it from the Brand made here.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { contrastRatio, HEX_COLOR, readableTextColor, sixDigitHex } from '../../shared/branding.ts';
import { logoVariantOn, SITE_NAME_TOKEN, telHref, type PageBrand } from '../../shared/brand.ts';
import { intlLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { PATHS } from '../base/paths.ts';
import { namespaceT, projectI18n } from '../i18n/index.ts';
import type esCommon from '../../locales/es/common.json';
import { svgParts, svgProblems, tileSvg, type SvgParts } from './svg.ts';
import { PARSE_ONCE } from '../base/parse-once.ts';

export const BRAND_FILE = 'brand.json';
export const LOGO_FILES = { light: 'logo-light.svg', dark: 'logo-dark.svg' } as const;
/** Where the pages find the logos: the file's name with a digest of its bytes (cached for a year). */
export const BRAND_URL_PREFIX = '/brand/';
const MAX_LOGO_BYTES = 32 * 1024;
/** Text on white (PDF headings, e-mail links) must reach WCAG AA. */
const MIN_ACCENT_CONTRAST = 4.5;

const WEEKDAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const;
type Weekday = (typeof WEEKDAYS)[number];

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const hex = z.string().regex(HEX_COLOR, 'must be a hex colour such as #30B7BB').transform(sixDigitHex);
const time = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time such as 09:00');
/** A text in every locale of the table, each required: a locale added without its words stops the start, named. */
const perLocaleText = (max: number) =>
  z.strictObject(Object.fromEntries(LOCALE_CODES.map((locale) => [locale, text(max)])) as Record<Locale, ReturnType<typeof text>>);
const address = z.strictObject({
  street: text(120),
  postalCode: text(16),
  city: text(80),
  region: text(80).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code (ISO 3166-1) such as ES'),
});

/** The legal name when brand.json gives none: SITE_NAME followed by the form of a Spanish limited company. */
export const DEFAULT_LEGAL_NAME = `${SITE_NAME_TOKEN} S.L.`;
/** A tax ID as it is written: B-00000000, ESB00000000, 12345678-Z. */
const TAX_ID = /^[A-Z0-9](?:[A-Z0-9 .-]{0,28}[A-Z0-9])?$/;

const brandSchema = z.strictObject({
  tagline: perLocaleText(140),
  contact: z.strictObject({
    email: z.email('must be an e-mail address'),
    phone: z
      .string()
      .trim()
      .regex(/^\+[1-9][\d ]{5,18}\d$/, 'must be an international phone number such as +34 910 000 000'),
    address,
    openingHours: z
      .array(
        z
          .strictObject({ days: z.array(z.enum(WEEKDAYS)).min(1, 'must name at least one day'), opens: time, closes: time })
          .refine((hours) => hours.opens < hours.closes, { message: 'must be after opens', path: ['closes'] }),
      )
      .max(7)
      .default([]),
  }),
  /** Who owns the site, as the legal pages and the structured data name it (company.ts). */
  legal: z.strictObject(
    {
      /** The registered name; `{{siteName}}` in it stands for SITE_NAME. */
      name: text(160)
        .refine((name) => !/\{\{/.test(name.replaceAll(SITE_NAME_TOKEN, '')), {
          message: `may hold no placeholder but ${SITE_NAME_TOKEN} (which stands for SITE_NAME)`,
        })
        .default(DEFAULT_LEGAL_NAME),
      taxId: z
        .string()
        .trim()
        .regex(TAX_ID, 'must be a tax ID such as B-00000000 (capital letters and digits, with spaces, dots or hyphens between)'),
      /** The entry in the companies register, a phrase in each language ("inscrita en el Registro Mercantil de Madrid, …"). */
      registry: perLocaleText(300),
      /** The registered office, when it is not the contact address. */
      registeredOffice: address.optional(),
    },
    {
      error: (issue) =>
        issue.input === undefined
          ? 'is required: the legal name, tax ID (taxId) and registry entry (registry) the legal pages show'
          : undefined,
    },
  ),
  colors: z.strictObject({
    /** The navbar's default colour (the specification's teal), the PDFs' band, the e-mails' bar, theme_color. */
    primary: hex,
    /** Text and links on white (PDF headings, e-mail links): must read on white. */
    accent: hex.refine((color) => contrastRatio(color, '#ffffff') >= MIN_ACCENT_CONTRAST, {
      message: `must read on white (a contrast of at least ${MIN_ACCENT_CONTRAST}:1): choose a darker colour`,
    }),
  }),
});

export type BrandFile = z.infer<typeof brandSchema>;
export type OpeningHours = BrandFile['contact']['openingHours'][number];

export type BrandLogo = { svg: string; parts: SvgParts; url: string };

export type Brand = BrandFile & {
  logos: Record<keyof typeof LOGO_FILES, BrandLogo>;
  /** The favicon: the logo that reads on the primary colour, on a tile of it. */
  favicon: string;
  /** What the pages carry (boot data). */
  page: PageBrand;
  /** The files served under BRAND_URL_PREFIX, by path. */
  files: ReadonlyMap<string, string>;
};

export class BrandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrandError';
  }
}

/** "lunes a viernes": the words between a run's first and last day are the locale's messages'. */
function dayRange(from: string, to: string, locale: Locale): string {
  return namespaceT<typeof esCommon>(projectI18n(), locale, 'common')('footer.dayRange', { from, to });
}

function dayName(day: Weekday, locale: Locale): string {
  // 2024-01-01 was a Monday.
  const date = new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day)));
  return new Intl.DateTimeFormat(intlLocale(locale), { weekday: 'long', timeZone: 'UTC' }).format(date);
}

/** "Lunes a viernes, 09:00–18:00": runs of consecutive days as ranges, the rest listed. */
export function openingHoursLine(hours: OpeningHours, locale: Locale): string {
  const days = [...new Set(hours.days)].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));
  const runs: Weekday[][] = [];
  for (const day of days) {
    const last = runs.at(-1);
    if (last && WEEKDAYS.indexOf(day) === WEEKDAYS.indexOf(last.at(-1)!) + 1) last.push(day);
    else runs.push([day]);
  }
  const parts = runs.map((run) =>
    run.length >= 3 ? dayRange(dayName(run[0]!, locale), dayName(run.at(-1)!, locale), locale) : run.map((d) => dayName(d, locale)),
  );
  const list = new Intl.ListFormat(intlLocale(locale), { type: 'conjunction' }).format(parts.flat());
  return `${list.charAt(0).toLocaleUpperCase(intlLocale(locale))}${list.slice(1)}, ${hours.opens}–${hours.closes}`;
}

/** An address as the footer writes it: street, postal code and city, the country's name in `locale`. */
export function addressLines(address: BrandFile['contact']['address'], locale: Locale): string[] {
  const country = new Intl.DisplayNames([intlLocale(locale)], { type: 'region' }).of(address.country) ?? address.country;
  return [address.street, `${address.postalCode} ${address.city}`, country];
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 10);
}

function readLogo(dir: string, file: string): BrandLogo {
  const where = relative(PATHS.root, join(dir, file)) || join(dir, file);
  let svg: string;
  try {
    svg = readFileSync(join(dir, file), 'utf8');
  } catch (error) {
    throw new BrandError(`${where}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (Buffer.byteLength(svg) > MAX_LOGO_BYTES) throw new BrandError(`${where}: is larger than ${MAX_LOGO_BYTES / 1024} KB`);
  const problems = svgProblems(svg);
  if (problems.length > 0) throw new BrandError(`Invalid logo ${where}:\n  ${problems.join('\n  ')}`);
  const name = file.replace(/\.svg$/, '');
  return { svg, parts: svgParts(svg), url: `${BRAND_URL_PREFIX}${name}-${digest(svg)}.svg` };
}

/** brand.json checked by the schema; a BrandError naming each bad field otherwise. */
export function parseBrandFile(raw: string, where = `brand/${BRAND_FILE}`): BrandFile {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new BrandError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  const result = brandSchema.safeParse(json, PARSE_ONCE);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`);
    throw new BrandError(`Invalid ${where}:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

export function perLocale<T>(make: (locale: Locale) => T): Record<Locale, T> {
  return Object.fromEntries(LOCALE_CODES.map((locale) => [locale, make(locale)])) as Record<Locale, T>;
}

/** Reads and checks brand/ (or `dir`): the identity the whole site shows. */
export function loadBrand(dir: string = PATHS.brand): Brand {
  const where = relative(PATHS.root, join(dir, BRAND_FILE)) || join(dir, BRAND_FILE);
  let raw: string;
  try {
    raw = readFileSync(join(dir, BRAND_FILE), 'utf8');
  } catch (error) {
    throw new BrandError(`${where}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const file = parseBrandFile(raw, where);
  const logos = { light: readLogo(dir, LOGO_FILES.light), dark: readLogo(dir, LOGO_FILES.dark) };
  const { contact, colors } = file;
  const page: PageBrand = {
    tagline: file.tagline,
    email: contact.email,
    phone: { text: contact.phone, href: telHref(contact.phone) },
    address: perLocale((locale) => addressLines(contact.address, locale)),
    hours: perLocale((locale) => contact.openingHours.map((hours) => openingHoursLine(hours, locale))),
    colors,
    logos: { light: logos.light.url, dark: logos.dark.url },
    legalName: file.legal.name,
  };
  return {
    ...file,
    logos,
    favicon: tileSvg(logos[logoVariantOn(colors.primary)].parts, colors.primary, 64),
    page,
    files: new Map(Object.values(logos).map((logo) => [logo.url, logo.svg])),
  };
}

/** The CSS custom properties the brand sets on every page: the navbar's default colours. */
export function brandCssVariables(brand: Pick<Brand, 'colors'>): Record<string, string> {
  return { '--navbar-bg': brand.colors.primary, '--navbar-fg': readableTextColor(brand.colors.primary) };
}

/** The contact details on one line (PDF footers): address · phone · e-mail. */
export function contactLine(brand: Pick<Brand, 'page'>, locale: Locale): string {
  return [brand.page.address[locale].join(', '), brand.page.phone.text, brand.page.email].join(' · ');
}

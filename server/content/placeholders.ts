// Placeholders in content: `{{company.legalName}}`, `{{siteName}}`… stand in the Markdown (and in
// Strapi's entries) for the company's facts, which live in brand/brand.json and SITE_NAME only
// (docs/decisions/036-company-identity.md). They are filled in on what a content source answers,
// HTML included, not in the Markdown: the build's pre-rendered HTML keeps them, so that a new
// SITE_NAME or brand.json shows at the next start without a build. A value goes into HTML
// escaped; into a link (`[…](mailto:{{company.email}})`, which the Markdown renderer
// percent-encodes) as a URL.
// A placeholder of ours that is not known (`{{company.nmae}}`) stops the build and the start,
// naming the file (parseFrontMatter); other braces (`{{ title }}` in a post about templates) are
// text.
import type { Company } from '../brand/company.ts';
import { LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { ContentSource } from './source.ts';

/** Every placeholder, with what it stands for (docs/editors.md lists them for editors). */
export const PLACEHOLDERS = {
  siteName: 'the site’s name (SITE_NAME)',
  'company.legalName': 'the registered name (brand.json legal.name, e.g. "Acme S.L.")',
  'company.taxId': 'the tax ID (legal.taxId)',
  'company.address': 'the registered office on one line, in the page’s language (legal.registeredOffice, else contact.address)',
  'company.registry': 'the entry in the companies register, in the page’s language (legal.registry)',
  'company.email': 'the contact e-mail address (contact.email)',
  'company.phone': 'the contact phone number (contact.phone)',
} as const;

export type Placeholder = keyof typeof PLACEHOLDERS;
export const PLACEHOLDER_NAMES = Object.keys(PLACEHOLDERS) as Placeholder[];

type Values = Readonly<Record<string, string>>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML, in an element or an attribute. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** What each placeholder says in `locale`. */
export function placeholderValues(company: Company, locale: Locale): Record<Placeholder, string> {
  return {
    siteName: company.siteName,
    'company.legalName': company.legalName,
    'company.taxId': company.taxId,
    'company.address': company.registeredOffice[locale],
    'company.registry': company.registry[locale],
    'company.email': company.email,
    'company.phone': company.phone,
  };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z][\w.]*)\s*\}\}/g;
/** A placeholder in a link's URL, as the Markdown renderer writes it (`{` → `%7B`). */
const ENCODED_PLACEHOLDER = /%7B%7B([A-Za-z][\w.]*)%7D%7D/gi;
/** What is meant as one of ours, known or not: `{{siteName}}`, `{{ company.anything }}`, any case. */
const OURS = /\{\{\s*((?:site_?name|company)[^{}]*?)\s*\}\}/gi;

/** The placeholders of ours in `text` that are not known (misspelt), once each. */
export function unknownPlaceholders(text: string): string[] {
  if (!text.includes('{{')) return [];
  const unknown = new Set<string>();
  for (const [token, name] of text.matchAll(OURS)) if (!Object.hasOwn(PLACEHOLDERS, name!)) unknown.add(token);
  return [...unknown];
}

/** Plain text (a title, a description, an alt) with its placeholders filled in. */
export function fillText(text: string, values: Values): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (token, name: string) => (Object.hasOwn(values, name) ? values[name]! : token));
}

/** Sanitised HTML with its placeholders filled in: escaped as text, encoded in a URL. */
export function fillHtml(html: string, values: Values): string {
  let filled = html;
  if (filled.includes('{{')) {
    filled = filled.replace(PLACEHOLDER, (token, name: string) => (Object.hasOwn(values, name) ? escapeHtml(values[name]!) : token));
  }
  if (/%7B%7B/i.test(filled)) {
    filled = filled.replace(ENCODED_PLACEHOLDER, (token, name: string) =>
      Object.hasOwn(values, name) ? escapeHtml(encodeURI(values[name]!)) : token,
    );
  }
  return filled;
}

/**
 * `value` with every string filled in (an `html` field as HTML, the rest as text); the same
 * object when nothing changed, and the same answer for the same object (`memo`), so that a
 * cached list costs its walk once.
 */
function fillDeep(value: unknown, key: string, values: Values, memo: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return key === 'html' ? fillHtml(value, values) : fillText(value, values);
  if (value === null || typeof value !== 'object') return value;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return value;
  if (memo.has(value)) return memo.get(value);
  let changed = false;
  const fill = (item: unknown, itemKey: string) => {
    const filled = fillDeep(item, itemKey, values, memo);
    if (filled !== item) changed = true;
    return filled;
  };
  const result = Array.isArray(value)
    ? value.map((item) => fill(item, key))
    : Object.fromEntries(Object.entries(value).map(([name, item]) => [name, fill(item, name)]));
  const answer = changed ? result : value;
  memo.set(value, answer);
  return answer;
}

/** The content source with the company's facts in place of the placeholders, whatever the source (Markdown or Strapi). */
export function withCompany(source: ContentSource, company: Company): ContentSource {
  const byLocale = new Map(
    LOCALE_CODES.map((locale) => [locale, { values: placeholderValues(company, locale) as Values, memo: new WeakMap<object, unknown>() }]),
  );
  /** Filled in the language it is written in (a legal page may be the default language's text). */
  const filled = <T>(value: T, locale: Locale): T => {
    const { values, memo } = byLocale.get(locale)!;
    return fillDeep(value, '', values, memo) as T;
  };
  return {
    ...source,
    listPosts: async (locale) => filled(await source.listPosts(locale), locale),
    getPost: async (slug, locale) => {
      const post = await source.getPost(slug, locale);
      return post && filled(post, post.locale);
    },
    getLegal: async (page, locale) => {
      const doc = await source.getLegal(page, locale);
      return doc && filled(doc, doc.locale);
    },
    getHome: async (locale) => filled(await source.getHome(locale), locale),
    listCaseStudies: async (locale) => filled(await source.listCaseStudies(locale), locale),
    listPractices: async (locale) => filled(await source.listPractices(locale), locale),
    getAuthor: async (name, locale) => filled(await source.getAuthor(name, locale), locale),
  };
}

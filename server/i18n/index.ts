// i18next on the server: every text from locales/<lng>/<ns>.json (i18next-fs-backend, loaded once
// at start), the language of a request by i18next-http-middleware's LanguageDetector. Language
// codes are whitelisted (supportedLngs) before they reach the backend's file path. The
// middleware's resource and missing-key handlers are deliberately not mounted.
import type { RequestHandler } from 'express';
import i18next, { type i18n, type InitOptions, type Resource, type TFunction, type TOptions } from 'i18next';
import Backend from 'i18next-fs-backend';
import { LanguageDetector } from 'i18next-http-middleware';
import { join } from 'node:path';
import { LOCALE_COOKIE } from '../../shared/constants.ts';
import { defaultLocale, intlLocale, isLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { formOfPath } from '../../shared/routes.ts';
import type { Messages, Translate } from '../../shared/translate.ts';
import { PATHS } from '../base/paths.ts';

/** The pages' namespace: the only one the browser receives (scripts/build.ts hashes it). */
export const NAMESPACE = 'common';
/** The server's own: the e-mails, the PDF documents, the service worker's offline page. */
export const SERVER_NAMESPACES = ['mail', 'pdf', 'offline'] as const;
export const NAMESPACES = [NAMESPACE, ...SERVER_NAMESPACES] as const;

/** What every server-side instance shares (the app's, and the PDF layout thread's). */
const SHARED_OPTIONS = {
  initAsync: false,
  supportedLngs: [...LOCALE_CODES],
  nonExplicitSupportedLngs: false,
  load: 'languageOnly',
  fallbackLng: defaultLocale,
  defaultNS: NAMESPACE,
  // Values are plain text everywhere: each template escapes them for its output (HTML, PDF).
  interpolation: { escapeValue: false },
  saveMissing: false,
} satisfies InitOptions;

/**
 * `{{count, grouped}}`: a number in the site's style, digits always grouped ("1.234", "1,234").
 * i18next's own `number` follows CLDR, which leaves four-digit Spanish numbers ungrouped; a name
 * of our own leaves `number` meaning what it means in the browser.
 */
function addSiteFormats(instance: i18n): void {
  instance.services.formatter?.addCached('grouped', (lng) => {
    const format = new Intl.NumberFormat(intlLocale(isLocale(lng) ? lng : defaultLocale), { useGrouping: 'always' });
    return (value: unknown) => format.format(Number(value));
  });
}

/** Plural forms count as their base key when the languages' key sets are compared. */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(PLURAL_SUFFIX, '')];
  return Object.entries(value).flatMap(([key, inner]) => keysOf(inner, prefix ? `${prefix}.${key}` : key));
}

/**
 * Every namespace of every language is loaded, and every language has every key another one has:
 * a missing file or key stops the start, named, instead of showing a key to a reader.
 */
function checkMessages(instance: i18n, localesDir: string, failures: ReadonlyMap<string, string>): void {
  for (const ns of NAMESPACES) {
    for (const lng of LOCALE_CODES) {
      if (!instance.hasResourceBundle(lng, ns)) {
        const reason = failures.get(`${lng}|${ns}`);
        throw new Error(`Messages missing: ${join(localesDir, lng, `${ns}.json`)} could not be loaded${reason ? ` (${reason})` : ''}`);
      }
    }
    const keys = new Map(LOCALE_CODES.map((lng) => [lng, new Set(keysOf(instance.getResourceBundle(lng, ns)))]));
    for (const [lng, own] of keys) {
      for (const [other, theirs] of keys) {
        const missing = [...theirs].filter((key) => !own.has(key));
        if (missing.length > 0) {
          throw new Error(
            `Messages missing in ${join(localesDir, lng, `${ns}.json`)}: ${missing.slice(0, 10).join(', ')}` +
              `${missing.length > 10 ? ` and ${missing.length - 10} more` : ''} (present in ${other}/${ns}.json)`,
          );
        }
      }
    }
  }
}

/**
 * The server's i18next instance: every namespace of every language read from `localesDir`,
 * synchronously (i18next-fs-backend reads with readFileSync when initAsync is false), and checked.
 */
export function createI18n(localesDir: string): i18n {
  const instance = i18next.createInstance();
  const failures = new Map<string, string>();
  instance.on('failedLoading', (lng: string, ns: string, message: string) => failures.set(`${lng}|${ns}`, message));
  void instance.use(Backend).init({
    ...SHARED_OPTIONS,
    preload: [...LOCALE_CODES],
    ns: [...NAMESPACES],
    backend: { loadPath: join(localesDir, '{{lng}}/{{ns}}.json') },
  });
  checkMessages(instance, localesDir, failures);
  addSiteFormats(instance);
  return instance;
}

let project: i18n | undefined;

/**
 * The project's own locales/, loaded on first use and kept: the app's instance (createApp), and
 * the one a module used without an app (a script, a test) reads its words from.
 */
export function projectI18n(): i18n {
  return (project ??= createI18n(PATHS.locales));
}

/** The namespaces `namespaces` of every language, as plain data (for a worker thread). */
export function resourcesOf(instance: i18n, namespaces: readonly string[]): Resource {
  return Object.fromEntries(
    LOCALE_CODES.map((lng) => [lng, Object.fromEntries(namespaces.map((ns) => [ns, instance.getResourceBundle(lng, ns)]))]),
  );
}

/** An instance over resources already loaded by the server's (the PDF layout thread's): no file is read. */
export function i18nFromResources(resources: Resource): i18n {
  const instance = i18next.createInstance();
  void instance.init({ ...SHARED_OPTIONS, resources, ns: Object.keys(resources[defaultLocale] ?? {}) });
  addSiteFormats(instance);
  return instance;
}

/**
 * One entry of Accept-Language in the group layout the header detector reads (1: the tag,
 * 5: its quality). Unlike the detector's default, a tag is read whole ("english" is not "en")
 * and an entry with q=0, which means "not acceptable" (RFC 9110 §12.4.2), does not match.
 */
const ACCEPT_LANGUAGE_ENTRY =
  /(?<![\w-])(([a-z]{1,8})(-[a-z\d]{1,8})*)(?![\w-])(?!\s*;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:,|$))\s*(;\s*q\s*=\s*([\d.]+))?/gi;

/**
 * The URL prefix decides, and a path without one (/es, /en, exactly as the route
 * table reads it) is Spanish — all but the bare root, which goes on to the cookie and the browser.
 */
const unprefixedPath = {
  name: 'unprefixedPath',
  lookup: (req: { path: string }) => (req.path !== '/' && !formOfPath(req.path).prefixed ? defaultLocale : undefined),
};

/**
 * The request's language, by i18next-http-middleware's LanguageDetector, in the specification's
 * order (docs/specification.md §8.2): the URL prefix ('path'; an unprefixed path other than `/`
 * is Spanish), then — at `/` only — the i18n_redirected cookie when LOCALE_COOKIE is on, then
 * Accept-Language ('header': the first supported language by quality), else Spanish. Only
 * whitelisted codes come out (supportedLngs; regional tags count as their language: en-GB is
 * en). Nothing is written back (no cookie, no cache). The result is `req.language` and the
 * Content-Language header, which is what the rest of the server reads.
 *
 * The package's `handle()` is not used: it clones the i18next instance on every request
 * (`cloneInstance`, no option to avoid it) for a `req.t` nothing here uses — texts are
 * translated through fixed translators made once at start (getFixedT).
 */
export function i18nMiddleware(instance: i18n, options: { localeCookie: boolean }): RequestHandler {
  const order = ['unprefixedPath', 'path', ...(options.localeCookie ? ['cookie'] : []), 'header'];
  const detectorOptions = {
    order,
    lookupFromPathIndex: 0,
    lookupCookie: LOCALE_COOKIE,
    lookupHeaderRegex: ACCEPT_LANGUAGE_ENTRY,
    // Compared by their language: "en-GB", "EN" → "en" (the path detector only ever sees /es or /en).
    convertDetectedLanguage: (code: string) => code.split('-')[0]!.toLowerCase(),
    caches: false,
  };
  const detector = new LanguageDetector(instance.services, detectorOptions, { fallbackLng: defaultLocale });
  detector.addDetector(unprefixedPath);
  return (req, res, next) => {
    const detected: unknown = detector.detect(req, res, order);
    // The whitelist once more, by type: whatever a detector returns, only a Locale goes on.
    const language: Locale = isLocale(detected) ? detected : defaultLocale;
    req.language = language;
    res.setHeader('Content-Language', language);
    next();
  };
}

/** The whole message bundle of a locale (handed to React on both sides). */
export function messagesOf(instance: i18n, locale: Locale): Messages {
  return instance.getResourceBundle(locale, NAMESPACE) as Messages;
}

/** How many distinct translations a remembering translator keeps (keys × parameter values). */
const REMEMBERED_TRANSLATIONS = 5000;

/**
 * A translator that remembers its answers. The messages do not change while the process runs,
 * and i18next's t() (key resolution, interpolation) cost ~20 µs a call — a tenth of a page
 * served from the render cache. Answers are kept by key and parameters, up to a bound.
 */
export function rememberingTranslate(t: TFunction): Translate {
  const answers = new Map<string, string>();
  return (key, params) => {
    const id = params ? `${key}\u0000${JSON.stringify(params)}` : key;
    let answer = answers.get(id);
    if (answer === undefined) {
      answer = params ? t(key, params) : t(key);
      if (answers.size < REMEMBERED_TRANSLATIONS) answers.set(id, answer);
    }
    return answer;
  };
}

/** The keys of a namespace, from its Spanish file (the reference): `a.b` when nested, plural forms under their base key. */
export type MessageKey<Messages> = BaseKey<LeafKey<Messages>>;
type LeafKey<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : LeafKey<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type BaseKey<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

/** A translator of one namespace in one language (i18next's getFixedT), its keys checked by the compiler. */
export type NamespaceT<Messages> = (key: MessageKey<Messages>, options?: TOptions) => string;

export function namespaceT<Messages>(instance: i18n, lng: Locale, ns: (typeof NAMESPACES)[number]): NamespaceT<Messages> {
  // Checked above by the caller's type; i18next's own key types are left out (plain strings).
  const namespace: string = ns;
  const t = instance.getFixedT(lng, namespace);
  return (key, options) => {
    const name: string = key;
    return options ? t(name, options) : t(name);
  };
}

/**
 * The name a group of messages gives a code (`roles` → ADMIN, `projects.states` → brief…); a
 * code the group does not know (an external API's role) is shown as it is, and never read as a
 * key path of its own.
 */
export function nameIn(instance: i18n, lng: Locale, group: string, code: string, ns: string = NAMESPACE): string {
  const names: unknown = instance.getResource(lng, ns, group);
  const name: unknown = typeof names === 'object' && names !== null ? Object.getOwnPropertyDescriptor(names, code)?.value : undefined;
  return typeof name === 'string' ? name : code;
}

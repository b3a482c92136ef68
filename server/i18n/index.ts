// i18next on the server: messages from locales/ (i18next-fs-backend), the language of a request
// from its URL (i18next-http-middleware with our own detector). Language codes are whitelisted
// (supportedLngs) before they reach the backend's file path. The middleware's resource and
// missing-key handlers are deliberately not mounted.
import type { RequestHandler } from 'express';
import i18next, { type i18n, type TFunction } from 'i18next';
import Backend from 'i18next-fs-backend';
import { LanguageDetector } from 'i18next-http-middleware';
import { join } from 'node:path';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { formOfPath } from '../../shared/routes.ts';
import type { Messages, Translate } from '../../shared/translate.ts';

export const NAMESPACE = 'common';

export async function createI18n(localesDir: string): Promise<i18n> {
  const detector = new LanguageDetector();
  // DESIGN.md §3: the URL prefix decides; unprefixed paths are the default locale.
  detector.addDetector({
    name: 'urlPrefix',
    lookup: (req) => formOfPath((req as { path?: string }).path ?? '/').locale,
  });
  const instance = i18next.createInstance();
  await instance
    .use(Backend)
    .use(detector)
    .init({
      initAsync: false,
      preload: [...LOCALE_CODES],
      supportedLngs: [...LOCALE_CODES],
      nonExplicitSupportedLngs: false,
      load: 'languageOnly',
      fallbackLng: defaultLocale,
      ns: [NAMESPACE],
      defaultNS: NAMESPACE,
      backend: { loadPath: join(localesDir, '{{lng}}/{{ns}}.json') },
      detection: { order: ['urlPrefix'], caches: false },
      interpolation: { escapeValue: false },
      saveMissing: false,
    });
  for (const locale of LOCALE_CODES) {
    if (!instance.hasResourceBundle(locale, NAMESPACE)) {
      throw new Error(`Messages missing: ${join(localesDir, locale, `${NAMESPACE}.json`)} could not be loaded`);
    }
  }
  return instance;
}

/**
 * The request's language, by i18next-http-middleware's LanguageDetector (our URL-prefix
 * detector, whitelisted codes only), announced in Content-Language. The package's `handle()`
 * would also clone an i18next instance per request, which nothing here uses: translations go
 * through fixed translators made once at start (issue 7: nothing per request that can be done
 * at start).
 */
export function i18nMiddleware(instance: i18n): RequestHandler {
  const detector = instance.services.languageDetector as LanguageDetector;
  const detect = detector.detect.bind(detector) as unknown as (req: unknown, res: unknown) => Locale;
  return (req, res, next) => {
    const language = detect(req, res);
    (req as { language?: string }).language = language;
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

// i18next on the server: messages from locales/ (i18next-fs-backend), the language of a request
// from its URL (i18next-http-middleware with our own detector). Language codes are whitelisted
// (supportedLngs) before they reach the backend's file path. The middleware's resource and
// missing-key handlers are deliberately not mounted.
import type { RequestHandler } from 'express';
import i18next, { type i18n } from 'i18next';
import Backend from 'i18next-fs-backend';
import { LanguageDetector } from 'i18next-http-middleware';
import { join } from 'node:path';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { formOfPath } from '../../shared/routes.ts';
import type { Messages } from '../../shared/translate.ts';

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
  return (req, res, next) => {
    const detect = detector.detect.bind(detector) as unknown as (req: unknown, res: unknown) => Locale;
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

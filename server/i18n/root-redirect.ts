import type { RequestHandler } from 'express';
import { LOCALE_COOKIE } from '../../shared/constants.ts';
import { defaultLocale, resolveRootLocale } from '../../shared/locales.ts';

/**
 * DESIGN.md §3: for the bare root only, a browser whose first supported language is not the
 * default (or, when enabled, whose i18n_redirected cookie says so) goes to its prefix.
 */
export function rootLocaleRedirect(options: { cookieEnabled: boolean }): RequestHandler {
  const vary = options.cookieEnabled ? 'Accept-Language, Cookie' : 'Accept-Language';
  return (req, res, next) => {
    if (req.path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.vary(vary);
    const locale = resolveRootLocale({
      cookie: options.cookieEnabled ? (req.cookies as Record<string, unknown> | undefined)?.[LOCALE_COOKIE] : undefined,
      acceptLanguage: req.get('accept-language'),
    });
    if (locale === defaultLocale) return next();
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    res.redirect(302, `/${locale}${query}`);
  };
}

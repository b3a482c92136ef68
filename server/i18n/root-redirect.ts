import type { RequestHandler } from 'express';
import { defaultLocale, isLocale, localeHref } from '../../shared/locales.ts';

/**
 * The bare root `/` of a request whose language is not the default (detected by
 * i18nMiddleware: the i18n_redirected cookie when enabled, else Accept-Language) goes to that
 * language's prefix, with its query. The answer depends on those headers: Vary says so.
 */
export function rootLocaleRedirect(options: { cookieEnabled: boolean }): RequestHandler {
  const vary = options.cookieEnabled ? 'Accept-Language, Cookie' : 'Accept-Language';
  return (req, res, next) => {
    if (req.path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.vary(vary);
    const locale = isLocale(req.language) ? req.language : defaultLocale;
    if (locale === defaultLocale) return next();
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    res.redirect(302, `${localeHref('/', locale)}${query}`);
  };
}

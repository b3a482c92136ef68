// Business constants of the specification (docs/specification.md §21), under the specification's own names:
// those code reads. The others live where they are used: the site's name in SITE_NAME (server/config.ts),
// the navbar's colour in brand/brand.json, the breakpoints in client/styles/app.css, the alert colours
// in client/styles/tokens.css, the locales and the default one in the locale table (shared/locales.ts).

/** The locale cookie: named i18n_redirected, off by default, kept 365 days. */
export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_MAX_AGE_DAYS = 365;

export const MIN_FETCH_DELAY_MS = 200;
export const CHUNK_RELOAD_GUARD_MS = 60_000;
export const IDLE_PREFETCH_TIMEOUT_MS = 2000;

/** Auth storage prefixes auth., _token., _refresh_token.; strategy local. */
export const AUTH_STRATEGY = 'local';
export const AUTH_TOKEN_COOKIE = `auth._token.${AUTH_STRATEGY}`;
export const AUTH_REFRESH_TOKEN_COOKIE = `auth._refresh_token.${AUTH_STRATEGY}`;
export const AUTH_STRATEGY_COOKIE = 'auth.strategy';
export const AUTH_REDIRECT_COOKIE = 'auth.redirect';

export const PAGE_TRANSITION_NAME = 'page';

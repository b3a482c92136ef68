// A download that cannot start now: 429 (this user has as many running as they may) or 503 (the
// process is at its cap), always with Retry-After, and a message that says what to do — as text
// for scripts (curl, fetch), JSON for API clients, and for a browser that followed a link a page
// in the visitor's language (the request's, server/i18n/) that says the wait as people say it.
import type { Request, Response } from 'express';
import { defaultLocale, isLocale, localeHref, type Locale } from '../../shared/locales.ts';
import { waitPhrase } from '../../shared/wait.ts';
import { projectI18n } from '../i18n/index.ts';

export type DownloadRefusal = {
  status: 429 | 503;
  retryAfterSeconds: number;
  /** Machine-readable, as the API's errors: `{error: {code, message}}`. */
  code: string;
  message: string;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The refusal's page in `locale`: its own words (downloadRefused.<code>), else the message as it is. */
export function refusalPage(refusal: DownloadRefusal, locale: Locale): string {
  const t = projectI18n().getFixedT(locale, 'common');
  const translate = (key: string, params?: Record<string, string | number>) => (params ? t(key, params) : t(key));
  const wait = waitPhrase(translate, refusal.retryAfterSeconds);
  const key = `downloadRefused.${refusal.code}`;
  const said = t(key, { wait });
  const text = said === key ? refusal.message : said;
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(t('downloadRefused.title', { wait }))}</title></head>` +
    `<body><p>${escapeHtml(text)}</p><p><a href="${localeHref('/', locale)}">${escapeHtml(t('downloadRefused.home'))}</a></p></body></html>`
  );
}

export function refuseDownload(res: Response, refusal: DownloadRefusal): void {
  const { status, retryAfterSeconds, code, message } = refusal;
  res.status(status).set({ 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'private, no-store' });
  const text = () => res.type('text/plain').send(message);
  const req: Request = res.req;
  const locale: Locale = isLocale(req.language) ? req.language : defaultLocale;
  // `*/*` (curl, fetch) gets the first: plain text.
  res.format({
    'text/plain': text,
    'text/html': () => res.send(refusalPage(refusal, locale)),
    'application/json': () => res.json({ error: { code, message } }),
    default: text,
  });
}

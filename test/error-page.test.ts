import express from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { UnknownMiddlewareError } from '../shared/guards.ts';
import { ApiError, BusyError } from '../server/http/errors.ts';
import { UpstreamError } from '../server/http/upstream.ts';
import type { PagePayload } from '../shared/page-data.ts';
import { PATHS } from '../server/base/paths.ts';
import { readManifest } from '../server/render/manifest.ts';
import { loadBrand } from '../server/brand/brand.ts';
import { renderPage } from '../server/render/render-page.tsx';
import { errorInfo } from '../server/render/resolve.ts';
import { createI18n, messagesOf, rememberingTranslate } from '../server/i18n/index.ts';
import { LOCALE_CODES, type Locale } from '../shared/locales.ts';
import { createTestApp } from './helpers/app.ts';
import { parsePage, textOf } from './helpers/plain-browser.ts';
import { UNKNOWN_GUARD_CASES, withUnknownGuard } from './helpers/unknown-guard.ts';

const i18n = await createI18n(PATHS.locales);
const manifest = readManifest(PATHS.manifest);

// A blog page without its data crashes while rendering (a realistic bug to recover from).
function crashingPage(locale: Locale = 'en'): PagePayload {
  return {
    url: locale === 'en' ? '/en/blog' : '/blog',
    status: 200,
    locale,
    routeName: `blog___${locale}`,
    params: {},
    state: { kind: 'page', page: 'blog', data: null },
    head: { title: 't', description: 'd', canonical: 'https://x.test/en', alternates: [] },
    user: null,
  };
}
// A site name that React cannot render breaks the layout, so the error page fails too.
const UNRENDERABLE = { not: 'a string' };

function appRendering(payload: PagePayload, siteName: unknown = 'the product', exposeErrors = false) {
  const app = express();
  app.get('/{*splat}', (_req, res) => {
    void renderPage(res, payload, {
      manifest,
      siteName: siteName as string,
      brand: loadBrand(),
      nonce: 'abc',
      messages: messagesOf(i18n, payload.locale),
      messageUrls: Object.fromEntries(LOCALE_CODES.map((locale) => [locale, `/${locale}.json`])) as Record<Locale, string>,
      consent: { current: null, analyticsConfigured: false },
      localeCookie: false,
      exposeErrors,
      onError: () => {},
    });
  });
  return app;
}

test("a page that fails to render shows the error page with 500 and 'Error'", async () => {
  const res = await request(appRendering(crashingPage())).get('/en/blog');
  expect(res.status).toBe(500);
  expect(res.text).toMatch(/<h1 id="error-title">Error<\/h1>/);
  expect(res.text).toContain('Back to the home page');
  expect(res.text).not.toMatch(/TypeError|at .*\.tsx/);
});

test("if the error page itself fails: 'An error occurred while showing the error page' and 'Go back to home'", async () => {
  const res = await request(appRendering(crashingPage(), UNRENDERABLE)).get('/en/blog');
  expect(res.status).toBe(500);
  expect(res.text).toContain('An error occurred while showing the error page');
  expect(res.text).toContain('<a href="/en">Go back to home</a>');
  expect(res.text).not.toContain('<pre>');
});

test('the last-resort page shows details in development only', async () => {
  const res = await request(appRendering(crashingPage(), UNRENDERABLE, true)).get('/en/blog');
  expect(res.text).toContain('<pre>');
  expect(res.text).toContain('Objects are not valid as a React child');
});

test('the last-resort page is in Spanish for Spanish pages', async () => {
  const res = await request(appRendering(crashingPage('es'), UNRENDERABLE)).get('/blog');
  expect(res.text).toContain('Se ha producido un error al mostrar la página de error');
  expect(res.text).toContain('Volver al inicio');
});

test("the error page shows the error's message; an unknown middleware reads 'Unknown middleware {name}' with 500", () => {
  const t = rememberingTranslate(i18n.getFixedT('en'));
  expect(errorInfo(new UnknownMiddlewareError('isMagic'), t)).toEqual({ status: 500, message: 'Unknown middleware isMagic' });
  expect(errorInfo(new Error('secret internals'), t)).toEqual({ status: 500, message: 'Error' });
});

test.each(UNKNOWN_GUARD_CASES)(
  "a route whose guard no one defined loads as the 500 page '$message' ($to; a link click: test/ui/unknown-middleware.test.tsx)",
  async ({ to, route, message }) => {
    const { app } = await createTestApp();
    withUnknownGuard(route, 'isMagic');
    const res = await request(app).get(to);
    expect(res.status).toBe(500);
    const document = parsePage(res.text);
    expect(textOf(document.querySelector('main .error-status'))).toBe('500');
    expect(textOf(document.querySelector('main h1'))).toBe(message);
  },
);

test.each([
  { error: new ApiError(404, 'not_found', 'No such project'), status: 404, key: 'notFound' },
  { error: new ApiError(403, 'forbidden', 'Only administrators may do this'), status: 403, key: 'forbidden' },
  { error: new BusyError(5, 'pdf_busy', 'Too many documents are being made'), status: 503, key: 'unavailable' },
  { error: new ApiError(409, 'conflict', 'The project changed meanwhile'), status: 409, key: 'generic' },
  {
    error: new UpstreamError(404, 'upstream_error', 'The API refused GET /admin/users with 404', {
      status: 404,
      message: 'Cannot GET /v1/admin/users',
    }),
    status: 502,
    key: 'upstream',
  },
  { error: new UpstreamError(503, 'api_unavailable', 'The API at x could not be reached', { status: 0 }), status: 503, key: 'unavailable' },
])("an API's refusal on a page says the site's words for it, never the API's message ($status errors.$key)", ({ error, status, key }) => {
  for (const locale of LOCALE_CODES) {
    const t = rememberingTranslate(i18n.getFixedT(locale));
    expect(errorInfo(error, t)).toEqual({ status, message: t(`errors.${key}`) });
    expect(t(`errors.${key}`)).not.toBe(`errors.${key}`);
  }
});

test('translations are remembered: the same answers as i18next, each key and parameters asked of it once', () => {
  const real = i18n.getFixedT('es');
  let calls = 0;
  const counting = ((...args: Parameters<typeof real>) => {
    calls++;
    return real(...args);
  }) as typeof real;
  const t = rememberingTranslate(counting);
  expect(t('pages.blog.title')).toBe(real('pages.blog.title'));
  expect(t('pages.blog.title')).toBe('Blog');
  expect(t('pages.home.description', { siteName: 'Uno' })).toBe(real('pages.home.description', { siteName: 'Uno' }));
  expect(t('pages.home.description', { siteName: 'Dos' })).toBe(real('pages.home.description', { siteName: 'Dos' }));
  expect(t('pages.home.description', { siteName: 'Uno' })).toContain('Uno');
  expect(calls).toBe(3);
});

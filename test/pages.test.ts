import request from 'supertest';
import { expect, test } from 'vitest';
import { BASE_ROUTES, formOfPath, routePath, type BaseRoute } from '../shared/routes.ts';
import { ORIGIN, testApp } from './helpers/app.ts';
import { samplePages, samplePagesInEveryForm } from './helpers/sample-urls.ts';

// Every page of the route table in its three forms (test/helpers/sample-urls.ts): those a
// signed-out visitor sees, and those that need a user.
const PUBLIC_CASES = samplePagesInEveryForm().filter((page) => page.role === undefined);
const PRIVATE_CASES = samplePagesInEveryForm().filter((page) => page.role !== undefined);

test.each(PUBLIC_CASES)('public page $url answers $status in $locale, with its h1', async ({ url, locale, status }) => {
  const res = await request(await testApp()).get(url);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain(`<html lang="${locale}">`);
  expect(res.text).toMatch(/<h1[^>]*>[^<]+/);
});

// zz is no language's code, so /zz is never a locale's home.
test.each(['/nope', '/en/nope', '/es/nope', '/blog/no-such-post', '/en/blog/no-such-post', '/zz'])(
  "unmatched or invalid %s shows the error page with 404 and 'This page could not be found'",
  async (url) => {
    const res = await request(await testApp()).get(url);
    expect(res.status).toBe(404);
    const english = url.startsWith('/en');
    expect(res.text).toContain(english ? 'This page could not be found' : 'No se ha encontrado esta página');
    expect(res.text).toContain(english ? 'Back to the home page' : 'Volver a la página de inicio');
    expect(res.text).toContain('<meta name="robots" content="noindex">');
  },
);

test.each(['/notFound', '/es/notFound', '/en/notFound'])('the notFound page %s answers 404', async (url) => {
  const res = await request(await testApp()).get(url);
  expect(res.status).toBe(404);
  expect(res.text).toContain(url.startsWith('/en') ? 'This page could not be found' : 'No se ha encontrado esta página');
});

test.each([
  ['/contact', '/Contact'],
  ['/en/contact', '/en/Contact'],
  ['/Blog', '/blog'],
  ['/en/blog/', '/en/blog'],
])('%s redirects 301 to %s', async (from, to) => {
  const res = await request(await testApp()).get(from);
  expect(res.status).toBe(301);
  expect(res.headers.location).toBe(to);
});

test.each(PRIVATE_CASES)(
  'a signed-out visitor on private $url is sent (302) to the login page of the same locale form',
  async ({ url }) => {
    const res = await request(await testApp()).get(url);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(routePath('login', formOfPath(url)));
  },
);

test('the status is decided before the first byte (no 200 for a streamed 404)', async () => {
  const res = await request(await testApp()).get('/en/blog/unknown-slug');
  expect(res.status).toBe(404);
  expect(res.headers['cache-control']).toBe('private, no-store');
});

test('the Content-Security-Policy is strict: scripts need this response nonce, no unsafe-inline', async () => {
  const res = await request(await testApp()).get('/en');
  const csp = String(res.headers['content-security-policy']);
  const scriptSrc = csp.split(';').find((d) => d.startsWith('script-src'))!;
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).not.toContain('unsafe-eval');
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  const scripts = [...res.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThanOrEqual(2);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
});

test('each response gets a fresh nonce', async () => {
  const app = await testApp();
  const a = (await request(app).get('/')).headers['content-security-policy'];
  const b = (await request(app).get('/')).headers['content-security-policy'];
  expect(a).not.toBe(b);
});

test('every page has a title with the site name, a description, hreflang alternates and a canonical URL', async () => {
  const res = await request(await testApp()).get('/es/blog');
  expect(res.text).toContain('<title>Blog | the product</title>');
  expect(res.text).toMatch(/<meta name="description" content="[^"]{20,}">/);
  expect(res.text).toContain(`<link rel="canonical" href="${ORIGIN}/blog">`);
  expect(res.text).toContain(`<link rel="alternate" hreflang="es" href="${ORIGIN}/blog">`);
  expect(res.text).toContain(`<link rel="alternate" hreflang="en" href="${ORIGIN}/en/blog">`);
  expect(res.text).toContain(`<link rel="alternate" hreflang="x-default" href="${ORIGIN}/blog">`);
});

test('the site name comes from one config value (SITE_NAME)', async () => {
  const app = await testApp({ SITE_NAME: 'Acme Experts' });
  const res = await request(app).get('/en/blog');
  expect(res.text).toContain('<title>Blog | Acme Experts</title>');
  expect(res.text).toContain('<span>Acme Experts</span>');
});

test('a blog post is canonical in its own locale and its alternates are its translations, each with its own slug', async () => {
  const res = await request(await testApp()).get('/en/blog/how-to-brief-an-expert');
  expect(res.text).toContain(`<link rel="canonical" href="${ORIGIN}/en/blog/how-to-brief-an-expert">`);
  expect(res.text).toContain(`hreflang="es" href="${ORIGIN}/blog/como-preparar-el-briefing-de-un-experto"`);
  expect(res.text).toContain(`hreflang="x-default" href="${ORIGIN}/blog/como-preparar-el-briefing-de-un-experto"`);
});

test('the page modulepreloads its own chunk and the entry, and links the extracted CSS', async () => {
  const res = await request(await testApp()).get('/en/blog');
  expect(res.text).toMatch(/<link rel="modulepreload" href="\/assets\/entry-[A-Z0-9]+\.js">/);
  expect(res.text).toMatch(/<link rel="modulepreload" href="\/assets\/blog-[A-Z0-9]+\.js">/);
  expect(res.text).not.toMatch(/modulepreload" href="\/assets\/home-/);
  expect(res.text).toMatch(/<link rel="stylesheet" href="\/assets\/entry-[A-Z0-9]+\.css">/);
});

test('the blog lists posts newest first, each linking to /blog/:slug', async () => {
  const res = await request(await testApp()).get('/en/blog');
  const dates = [...res.text.matchAll(/<time dateTime="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]!);
  expect(dates.length).toBeGreaterThanOrEqual(3);
  expect([...dates].sort().reverse()).toEqual(dates);
  expect(res.text).toContain('href="/en/blog/how-to-brief-an-expert"');
});

test('the navbar has the Blog link, a switcher to the other locale keeping the page, and Private Area', async () => {
  const res = await request(await testApp()).get('/en/blog/how-to-brief-an-expert');
  expect(res.text).toContain('href="/en/blog"');
  expect(res.text).toMatch(/class="locale-switcher"[^]*?href="\/blog\/como-preparar-el-briefing-de-un-experto"[^>]*>Español</);
  expect(res.text).not.toMatch(/class="locale-switcher"[^]*?>English<\/a>/);
  expect(res.text).toContain('href="/en/login"');
});

test('the footer links the four legal pages and Contact in the current locale', async () => {
  const res = await request(await testApp()).get('/en');
  const footer = res.text.slice(res.text.indexOf('<footer'));
  for (const href of ['/en/legal', '/en/privacy', '/en/cookies', '/en/responsible', '/en/Contact']) {
    expect(footer).toContain(`href="${href}"`);
  }
});

test('/healthz answers ok without caching', async () => {
  const res = await request(await testApp()).get('/healthz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ok', worker: null });
  expect(res.headers['cache-control']).toBe('no-store');
});

test('robots.txt points at the sitemap on the configured origin', async () => {
  const res = await request(await testApp()).get('/robots.txt');
  expect(res.status).toBe(200);
  expect(res.text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
});

test('sitemap.xml lists every indexable page in each locale and every post, practice and case study, never another page', async () => {
  const res = await request(await testApp()).get('/sitemap.xml');
  expect(res.status).toBe(200);
  const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  const table: readonly BaseRoute[] = BASE_ROUTES;
  const routeOf = (base: string) => table.find((route) => route.base === base)!;
  const indexable = samplePages().filter((page) => routeOf(page.base).indexable);
  expect(indexable.length).toBeGreaterThan(0);
  for (const page of indexable) expect(locs).toContain(ORIGIN + page.url);
  for (const path of [
    '/blog/como-preparar-el-briefing-de-un-experto',
    '/en/blog/how-to-brief-an-expert',
    '/blog/proyectos-tercer-sector',
    '/practices/data',
    '/en/practices/compliance',
    '/case-studies/valdeluz-online-services',
    '/en/case-studies/nortia-demand-forecast',
  ]) {
    expect(locs).toContain(ORIGIN + path);
  }
  // The others, but a page of content (a post, a practice, a case study): listed by the content, not by the table.
  const others = samplePages().filter((page) => !routeOf(page.base).indexable && !routeOf(page.base).listedByContent);
  for (const page of others) expect(locs).not.toContain(ORIGIN + page.url);
});

test('hashed assets are immutable for a year and served precompressed', async () => {
  const app = await testApp();
  const page = await request(app).get('/');
  const entry = /<script type="module" src="([^"]+)"/.exec(page.text)![1]!;
  const br = await request(app).get(entry).set('Accept-Encoding', 'br');
  expect(br.status).toBe(200);
  expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['content-type']).toMatch(/javascript/);
  const missing = await request(app).get('/assets/entry-DOESNOTEXIST.js');
  expect(missing.status).toBe(404);
  expect(missing.headers['cache-control']).toBe('no-store');
});

test('public pages may be cached but revalidated; error pages are not stored', async () => {
  const app = await testApp();
  expect((await request(app).get('/en/blog')).headers['cache-control']).toBe('no-cache');
  expect((await request(app).get('/en/nope')).headers['cache-control']).toBe('private, no-store');
});

test('page data for client navigations comes from the same resolution as a page load', async () => {
  const app = await testApp();
  const ok = await request(app).get('/_data').query({ path: '/en/blog' });
  expect(ok.body).toMatchObject({
    kind: 'payload',
    payload: { status: 200, locale: 'en', routeName: 'blog___en', state: { kind: 'page', page: 'blog' } },
  });
  const missing = await request(app).get('/_data').query({ path: '/en/blog/nope' });
  expect(missing.body).toMatchObject({
    kind: 'payload',
    payload: { status: 404, state: { kind: 'error', error: { message: 'This page could not be found' } } },
  });
  const redirect = await request(app).get('/_data').query({ path: '/profile' });
  expect(redirect.body).toEqual({ kind: 'redirect', to: '/login', status: 302 });
  const bad = await request(app).get('/_data').query({ path: '//evil.com' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.message).toContain('//evil.com');
});

test('a POST to a page that takes none is a clean 405', async () => {
  const res = await request(await testApp())
    .post('/blog')
    .set('Origin', ORIGIN)
    .send('x=1');
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe('GET, HEAD');
});

test.each(['/', '/en', '/en/blog', '/en/login'])(
  '%s carries no message bundle: the boot script names the hashed messages file, which the head preloads (with scripts) and /assets serves',
  async (path) => {
    const app = await testApp();
    const res = await request(app).get(path).set('Accept-Encoding', 'identity');
    const boot = JSON.parse(/<script type="application\/json" id="__BOOT__"[^>]*>([\s\S]*?)<\/script>/.exec(res.text)![1]!) as {
      messages?: unknown;
      messageUrls: Record<string, string>;
      payload: { locale: string };
    };
    expect(boot.messages).toBeUndefined();
    const url = boot.messageUrls[boot.payload.locale]!;
    expect(url).toMatch(/^\/assets\/messages-(es|en)-[0-9a-f]{10}\.json$/);
    // Preloaded only when scripts run (no wasted download without JavaScript): the head's first script adds the link.
    const head = res.text.slice(0, res.text.indexOf('</head>'));
    expect(head).toMatch(
      /<script nonce="[^"]+">document\.documentElement\.classList\.add\('js'\);[^<]*l\.rel='preload';l\.as='fetch';l\.crossOrigin='anonymous';/,
    );
    expect(head).toContain(`l.href="${url}"`);
    expect(head).not.toContain('<link rel="preload" href="/assets/messages-');
    const messages = await request(app).get(url);
    expect(messages.status).toBe(200);
    expect(messages.headers['cache-control']).toContain('immutable');
    expect((messages.body as { nav?: unknown }).nav).toBeTypeOf('object');
    // The page itself is small: the messages (~20 kB) travel once, cached across pages (the
    // posts' covers with their srcsets, the social tags, the theme switch, the footer's contact
    // details and the brand take ~6 kB of it). The home page tells the company's story
    // (practices, how it works, figures, logos, case studies): ~26 kB, ~3.4 kB of it page data.
    expect(Buffer.byteLength(res.text)).toBeLessThan(path === '/' || path === '/en' ? 30_000 : 22_000);
  },
);

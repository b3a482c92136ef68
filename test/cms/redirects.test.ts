// The editors' redirects from Strapi's "redirect" collection (server/cms/redirects.ts) against the
// fake Strapi 5 with Draft & Publish: a published redirect answers 301, a change shows on every
// instance once the webhook arrived, bad entries are refused alone. The rules themselves, and the
// embedded file: test/redirects.test.ts.
import request from 'supertest';
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiContent } from '../../server/cms/content.ts';
import { changeOfTopic, topicOf } from '../../server/cms/invalidation.ts';
import { changesOf } from '../../server/cms/webhook.ts';
import { POLL_MS } from '../../server/db/changes.ts';
import { createTestApp, TEST_ENGINE } from '../helpers/app.ts';
import { scaled } from '../helpers/time-scale.ts';
import { documentStore, webhookBody } from './fake-strapi-documents.ts';
import { captureLogger, LEAST_PRIVILEGE, paginate, sendJson, sendStrapiError, startFakeStrapi, unusedUrl } from './fake-strapi.ts';

const SECRET = 'webhook-secret-that-is-long-enough-0123456789';
const ENV = { CMS_WEBHOOK_SECRET: SECRET, CMS_CACHE_SECONDS: '3600' };

/** A Strapi 5 with these published redirects (and the permissions docs/editors.md grants), and the site on it. */
async function siteWithRedirects(redirects: Record<string, unknown>[]) {
  const store = documentStore({ strapi: 5 });
  const ids = redirects.map((fields) => store.create('redirects', 'es', fields, { published: true }));
  const cms = await startFakeStrapi(store.handler, { access: LEAST_PRIVILEGE });
  const { logger, warnings } = captureLogger();
  const site = await createTestApp({ CMS_URL: cms.url, ...ENV }, { logger });
  return { store, cms, ids, warnings, ...site };
}

function deliver(app: Parameters<typeof request>[0], body: object) {
  return request(app).post('/cms/webhook').set('Content-Type', 'application/json').set('Authorization', `Bearer ${SECRET}`).send(body);
}

test('a redirect published in Strapi answers 301 with its Location, the query kept', async () => {
  const { app, cms } = await siteWithRedirects([
    { from: '/servicios-antiguos', to: '/blog', status: 301 },
    { from: '/en/offer', to: 'https://example.org/offer', status: 302 },
  ]);
  const res = await request(app).get('/servicios-antiguos?ref=mail').expect(301);
  expect(res.headers.location).toBe('/blog?ref=mail');
  expect((await request(app).get('/en/offer')).headers.location).toBe('https://example.org/offer');
  // Read anonymously, oldest first, page by page.
  const read = cms.reads().find((r) => r.path === '/api/redirects')!;
  expect(read.headers.authorization).toBeUndefined();
  expect(read.query.get('sort[0]')).toBe('createdAt:asc');
});

test('a redirect with no status is a 301', async () => {
  const { app } = await siteWithRedirects([{ from: '/viejo', to: '/blog', status: null }]);
  expect((await request(app).get('/viejo')).status).toBe(301);
});

test(`a redirect published after the table was read shows on every instance once the webhook arrived — and not before, within the TTL (${TEST_ENGINE})`, async () => {
  const { app, store, cms, db } = await siteWithRedirects([{ from: '/uno', to: '/blog' }]);
  const { app: other } = await createTestApp({ CMS_URL: cms.url, ...ENV }, { db });
  expect((await request(app).get('/old-offer')).status).toBe(404);
  expect((await request(other).get('/old-offer')).status).toBe(404);
  const id = store.create('redirects', 'es', { from: '/old-offer', to: '/en/blog', status: 301 });
  store.publish(id, 'es');
  // The table is kept for the TTL (an hour here): the cache is used.
  expect((await request(app).get('/old-offer')).status).toBe(404);
  const res = await deliver(app, webhookBody('entry.publish', 'redirect', { id: 9, documentId: id, from: '/old-offer' }));
  expect(res.body).toEqual({ purged: ['cms:redirect'] });
  const answer = await request(app).get('/old-offer');
  expect([answer.status, answer.headers.location]).toEqual([301, '/en/blog']);
  // The other instance is told by the change feed.
  await expect.poll(async () => (await request(other).get('/old-offer')).status, { timeout: scaled(POLL_MS * 6), interval: 50 }).toBe(301);
  expect(TEST_ENGINE).toMatch(/sqlite|postgres/);
});

test('a redirect edited and unpublished: the new target, then a 404, each once the webhook arrived', async () => {
  const { app, store, ids } = await siteWithRedirects([{ from: '/viejo', to: '/blog' }]);
  expect((await request(app).get('/viejo')).headers.location).toBe('/blog');
  store.edit(ids[0]!, 'es', { to: '/legal', status: 302 });
  store.publish(ids[0]!, 'es');
  await deliver(app, webhookBody('entry.publish', 'redirect', { documentId: ids[0] }));
  const edited = await request(app).get('/viejo');
  expect([edited.status, edited.headers.location]).toEqual([302, '/legal']);
  store.unpublish(ids[0]!, 'es');
  await deliver(app, webhookBody('entry.unpublish', 'redirect', { documentId: ids[0] }));
  expect((await request(app).get('/viejo')).status).toBe(404);
});

test('bad redirects from Strapi are refused alone, each with a log line naming it and why; the rest are served', async () => {
  const { app, ids, warnings } = await siteWithRedirects([
    { from: '/ping', to: '/pong' },
    { from: '/pong', to: '/ping' },
    { from: '/blog', to: '/legal' },
    { from: '/bad', to: 'javascript:alert(1)' },
    { from: '/no-target' },
    { from: '/fine', to: '/blog' },
  ]);
  expect((await request(app).get('/fine')).status).toBe(301);
  for (const path of ['/ping', '/pong', '/bad', '/no-target']) expect((await request(app).get(path)).status, path).toBe(404);
  expect((await request(app).get('/blog')).status).toBe(200);
  const messages = warnings().map((line) => line.msg);
  expect(messages).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^CMS redirect \d+ skipped: to /),
      `Redirect CMS redirect ${ids[2]} (/blog) refused: "from" /blog is the site's page /blog: a redirect may not shadow a route of the site`,
      `Redirect CMS redirect ${ids[3]} (/bad) refused: "to" javascript:alert(1) must be a path or an http(s) URL`,
      `Redirect CMS redirect ${ids[0]} (/ping) refused: it is part of a loop: /ping → /pong → /ping`,
      `Redirect CMS redirect ${ids[1]} (/pong) refused: it is part of a loop: /pong → /ping → /pong`,
    ]),
  );
  expect(messages.filter((m) => m.includes('/fine'))).toEqual([]);
});

test('of two redirects from the same path in Strapi, the older wins', async () => {
  const { app, ids, warnings } = await siteWithRedirects([
    { from: '/viejo', to: '/blog' },
    { from: '/viejo/', to: '/legal' },
  ]);
  expect((await request(app).get('/viejo')).headers.location).toBe('/blog');
  expect(warnings().map((l) => l.msg)).toContain(
    `Redirect CMS redirect ${ids[1]} (/viejo/) refused: CMS redirect ${ids[0]} redirects /viejo already (the first one is kept)`,
  );
});

test('a CMS without the redirect type has no redirects: the 404 page, with one warning', async () => {
  const { logger, warnings } = captureLogger();
  const cms = await startFakeStrapi((req, res) =>
    req.path === '/api/redirects' ? sendStrapiError(res, 404, 'NotFoundError', 'Not Found') : sendJson(res, 200, { data: [] }),
  );
  const content = createStrapiContent({ client: createStrapiClient({ url: cms.url, logger }), ttlMs: 0, logger });
  for (let i = 0; i < 3; i++) expect((await content.redirects()).size).toBe(0);
  expect(warnings().map((l) => l.msg)).toEqual([
    'CMS /api/redirects: not found (404): no redirects until the "redirect" collection exists',
  ]);
});

test('a CMS that fails: the 404 page, never an error page, and the last good table while there is one', async () => {
  const { logger } = captureLogger();
  let up = true;
  const cms = await startFakeStrapi((req, res) =>
    up ? sendJson(res, 200, paginate([{ id: 1, documentId: 'a1', from: '/viejo', to: '/blog' }], req.query)) : res.destroy(),
  );
  const content = createStrapiContent({ client: createStrapiClient({ url: cms.url, logger }), ttlMs: 0, failureTtlMs: 0, logger });
  expect((await content.redirects()).find('/viejo')?.to).toBe('/blog');
  up = false;
  expect((await content.redirects()).find('/viejo')?.to).toBe('/blog');
  // A CMS that never answered: an unknown path is the 404 page, not an error page.
  const { app } = await createTestApp({ CMS_URL: await unusedUrl() });
  expect((await request(app).get('/viejo')).status).toBe(404);
});

test('redirects are read page by page (Strapi answers 100 at most)', async () => {
  const { logger } = captureLogger();
  const all = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, documentId: `d${i}`, from: `/old-${i}`, to: '/blog' }));
  const cms = await startFakeStrapi((req, res) => sendJson(res, 200, paginate(all, req.query)));
  const content = createStrapiContent({ client: createStrapiClient({ url: cms.url, logger }), logger });
  const table = await content.redirects();
  expect(table.size).toBe(150);
  expect(table.find('/old-149')?.to).toBe('/blog');
  expect(cms.reads().map((r) => r.query.get('pagination[page]'))).toEqual(['1', '2']);
});

test('the webhook of a redirect names the redirects topic, which every instance reads back', () => {
  expect(changesOf(webhookBody('entry.publish', 'redirect', { documentId: 'x' }))).toEqual({ changes: [{ model: 'redirect' }] });
  expect(topicOf({ model: 'redirect' })).toBe('cms:redirect');
  expect(changeOfTopic('cms:redirect')).toEqual({ model: 'redirect' });
});

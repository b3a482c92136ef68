// Publishing shows at once: Strapi's webhook (POST /cms/webhook) makes the CMS caches of every
// instance stale through the change feed (server/cms/webhook.ts, invalidation.ts), and the
// render cache follows by itself (its key is the page's data). Without a webhook, the TTL
// (CMS_CACHE_SECONDS, an hour here) keeps what was read — which proves the caches are used.
import express from 'express';
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { expect, test } from 'vitest';
import { loadBrand } from '../../server/brand/brand.ts';
import { createStrapiBranding } from '../../server/cms/branding.ts';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiContent } from '../../server/cms/content.ts';
import { changeOfTopic, topicOf, type CmsChange } from '../../server/cms/invalidation.ts';
import { changesOf, cmsWebhook, MAX_BODY_BYTES } from '../../server/cms/webhook.ts';
import { POLL_MS } from '../../server/db/changes.ts';
import { createLogger } from '../../server/base/logger.ts';
import { createTestApp, TEST_ENGINE } from '../helpers/app.ts';
import { documentStore, webhookBody, type DocumentStore } from './fake-strapi-documents.ts';
import { captureLogger, READ_ONLY_TOKEN, sendJson, startFakeStrapi, type Received } from './fake-strapi.ts';
import { scaled } from '../helpers/time-scale.ts';

const SECRET = 'webhook-secret-that-is-long-enough-0123456789';
const READS = ['post.find', 'post.findOne', 'legal-page.find', 'legal-page.findOne'];
const ENV = { CMS_WEBHOOK_SECRET: SECRET, CMS_CACHE_SECONDS: '3600' };

type App = Awaited<ReturnType<typeof createTestApp>>['app'];

/** A Strapi 5 with one published post (es) and the privacy page, and the site on it. */
async function siteWithCms(env: Record<string, string> = ENV) {
  const store = documentStore({ strapi: 5 });
  const first = store.create(
    'posts',
    'es',
    { title: 'Primera entrada', slug: 'primera', content: 'Uno', date: '2026-02-01' },
    { published: true },
  );
  const privacy = store.create('legal-pages', 'es', { page: 'privacy', title: 'Privacidad, versión 1', content: 'x' }, { published: true });
  const cms = await startFakeStrapi(store.handler, { access: { public: READS } });
  const site = await createTestApp({ CMS_URL: cms.url, ...env });
  return { store, cms, first, privacy, ...site };
}

function deliver(app: App, body: unknown, authorization: string | null = `Bearer ${SECRET}`) {
  const req = request(app).post('/cms/webhook').set('Content-Type', 'application/json');
  if (authorization !== null) req.set('Authorization', authorization);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
}

const blogText = async (app: App) => (await request(app).get('/blog')).text;

test('a post published after the list was cached shows on the next request once the webhook arrived — and not before, within the TTL', async () => {
  const { app, store } = await siteWithCms();
  expect(await blogText(app)).toContain('Primera entrada');
  expect((await request(app).get('/blog/segunda')).status).toBe(404);
  const second = store.create('posts', 'es', { title: 'Segunda entrada', slug: 'segunda', content: 'Dos', date: '2026-03-01' });
  store.publish(second, 'es');
  // Within the TTL, the cached list and the cached "not found" stand: the caches are used.
  expect((await request(app).get('/blog/segunda')).status).toBe(404);
  expect(await blogText(app)).not.toContain('Segunda entrada');
  const res = await deliver(
    app,
    webhookBody('entry.publish', 'post', { id: 9, documentId: second, slug: 'segunda', locale: 'es', title: 'Segunda entrada' }),
  );
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ purged: [`cms:post:${second}/segunda`] });
  expect(await blogText(app)).toContain('Segunda entrada');
  expect((await request(app).get('/blog/segunda')).status).toBe(200);
});

test('an unpublished post leaves the list and its page is a 404 once the webhook arrived', async () => {
  const { app, store, first } = await siteWithCms();
  expect((await request(app).get('/blog/primera')).status).toBe(200);
  expect(await blogText(app)).toContain('Primera entrada');
  store.unpublish(first, 'es');
  expect((await request(app).get('/blog/primera')).status).toBe(200);
  expect(
    (await deliver(app, webhookBody('entry.unpublish', 'post', { id: 1, documentId: first, slug: 'primera', locale: 'es' }))).status,
  ).toBe(200);
  expect(await blogText(app)).not.toContain('Primera entrada');
  expect((await request(app).get('/blog/primera')).status).toBe(404);
});

test('purging the CMS cache is enough for the render cache: its key is the page data, so an edit shows at once although the page was served from it', async () => {
  const { app, store, first, renderCache } = await siteWithCms();
  for (let i = 0; i < 3; i++) expect((await request(app).get('/blog/primera')).text).toContain('Primera entrada');
  const hits = renderCache!.stats().hits;
  expect((await request(app).get('/blog/primera')).text).toContain('Primera entrada');
  expect(renderCache!.stats().hits).toBe(hits + 1);
  store.edit(first, 'es', { title: 'Primera entrada, corregida' });
  store.publish(first, 'es');
  expect((await request(app).get('/blog/primera')).text).not.toContain('corregida');
  await deliver(app, webhookBody('entry.publish', 'post', { id: 3, documentId: first, slug: 'primera', locale: 'es' }));
  const page = await request(app).get('/blog/primera');
  expect(page.text).toContain('Primera entrada, corregida');
  expect(await blogText(app)).toContain('Primera entrada, corregida');
});

test('a slug changed in the CMS: the old URL stops showing the post (purged by its documentId)', async () => {
  const { app, store, first } = await siteWithCms();
  expect((await request(app).get('/blog/primera')).status).toBe(200);
  store.edit(first, 'es', { slug: 'primera-renombrada' });
  store.publish(first, 'es');
  await deliver(app, webhookBody('entry.publish', 'post', { documentId: first, slug: 'primera-renombrada', locale: 'es' }));
  expect((await request(app).get('/blog/primera')).status).toBe(404);
  expect((await request(app).get('/blog/primera-renombrada')).status).toBe(200);
});

test('a legal page published: that page shows the new text, in every language (English falls back to Spanish)', async () => {
  const { app, store, privacy } = await siteWithCms();
  expect((await request(app).get('/privacy')).text).toContain('Privacidad, versión 1');
  expect((await request(app).get('/en/privacy')).text).toContain('Privacidad, versión 1');
  store.edit(privacy, 'es', { title: 'Privacidad, versión 2' });
  store.publish(privacy, 'es');
  const res = await deliver(app, webhookBody('entry.publish', 'legal-page', { documentId: privacy, page: 'privacy', locale: 'es' }));
  expect(res.body).toEqual({ purged: ['cms:legal-page:privacy'] });
  expect((await request(app).get('/privacy')).text).toContain('Privacidad, versión 2');
  expect((await request(app).get('/en/privacy')).text).toContain('Privacidad, versión 2');
});

test(`a second instance on the same database purges too, told by the change feed (${TEST_ENGINE})`, async () => {
  const { app, store, cms, db } = await siteWithCms();
  const { app: other } = await createTestApp({ CMS_URL: cms.url, ...ENV }, { db });
  expect(await blogText(app)).not.toContain('Segunda entrada');
  expect(await blogText(other)).not.toContain('Segunda entrada');
  const second = store.create(
    'posts',
    'es',
    { title: 'Segunda entrada', slug: 'segunda', content: 'Dos', date: '2026-03-01' },
    { published: true },
  );
  expect(await blogText(other)).not.toContain('Segunda entrada');
  expect((await deliver(app, webhookBody('entry.publish', 'post', { documentId: second, slug: 'segunda', locale: 'es' }))).status).toBe(
    200,
  );
  // Its cache would keep the old list for an hour (CMS_CACHE_SECONDS): only the feed can make it read again.
  await expect.poll(() => blogText(other), { timeout: scaled(POLL_MS * 6), interval: 50 }).toContain('Segunda entrada');
});

test.each([
  ['no Authorization header', null],
  ['a wrong secret', 'Bearer webhook-secret-that-is-long-enough-0123456788'],
  ['the secret with more after it', `Bearer ${SECRET}x`],
  ['a prefix of the secret', `Bearer ${SECRET.slice(0, 10)}`],
  ['the secret without Bearer', SECRET],
  ['Basic credentials', `Basic ${Buffer.from(`strapi:${SECRET}`).toString('base64')}`],
])('%s: 401, and nothing is purged', async (_case, authorization) => {
  const { app, store } = await siteWithCms();
  expect(await blogText(app)).toContain('Primera entrada');
  const second = store.create(
    'posts',
    'es',
    { title: 'Segunda entrada', slug: 'segunda', content: 'Dos', date: '2026-03-01' },
    { published: true },
  );
  const res = await deliver(app, webhookBody('entry.publish', 'post', { documentId: second, slug: 'segunda' }), authorization);
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toBe('Bearer');
  expect(res.body.error.message).toBe('Wrong or missing webhook secret (Authorization: Bearer …)');
  expect(await blogText(app)).not.toContain('Segunda entrada');
});

test('without CMS_WEBHOOK_SECRET, or without a CMS, the webhook is a 404', async () => {
  const { app } = await siteWithCms({ CMS_CACHE_SECONDS: '3600' });
  expect((await deliver(app, webhookBody('entry.publish', 'post', null))).status).toBe(404);
  const { app: embedded } = await createTestApp({ CMS_WEBHOOK_SECRET: SECRET });
  const res = await deliver(embedded, webhookBody('entry.publish', 'post', null));
  expect(res.status).toBe(404);
  expect(res.body.error.message).toBe('The CMS webhook is not configured on this site');
});

test('the answers to odd deliveries: a null entry purges the whole model, a duplicate the same again, a draft created nothing; no crash', async () => {
  const { app, store } = await siteWithCms();
  expect(await blogText(app)).toContain('Primera entrada');
  const second = store.create(
    'posts',
    'es',
    { title: 'Segunda entrada', slug: 'segunda', content: 'Dos', date: '2026-03-01' },
    { published: true },
  );
  const nullEntry = await deliver(app, webhookBody('entry.publish', 'post', null));
  expect(nullEntry.status).toBe(200);
  expect(nullEntry.body).toEqual({ purged: ['cms:post:*'] });
  expect(await blogText(app)).toContain('Segunda entrada');
  const body = webhookBody('entry.update', 'post', { documentId: second, slug: 'segunda' });
  const once = await deliver(app, body);
  const twice = await deliver(app, body);
  expect([once.status, twice.status]).toEqual([200, 200]);
  expect(twice.body).toEqual(once.body);
  const draft = await deliver(app, webhookBody('entry.create', 'post', { documentId: 'x1', slug: 'x', publishedAt: null }));
  expect(draft.body).toEqual({ ignored: 'a draft was created' });
  // Strapi's Trigger button sends its test event.
  const test = await deliver(app, { event: 'trigger-test', createdAt: '2026-05-01T00:00:00.000Z' });
  expect([test.status, test.body]).toEqual([200, { ignored: 'the event "trigger-test" changes nothing the site shows' }]);
  expect((await deliver(app, { event: 'entry.draft-discard', model: 'post', entry: {} })).body).toEqual({
    ignored: 'the event "entry.draft-discard" changes nothing the site shows',
  });
  expect((await deliver(app, webhookBody('entry.publish', 'article', { id: 1 }))).body).toEqual({
    ignored: 'the model "article" is not shown by the site',
  });
  expect((await request(app).get('/blog/segunda')).status).toBe(200);
});

test.each([
  ['not JSON', '{"event": "entry.publish",', 400, 'The body is not JSON'],
  ['an empty body', '', 400, 'The body is not JSON'],
  ['a JSON array', '[]', 400, 'The body must be a JSON object'],
  ['no event', '{"model":"post","entry":{}}', 400, 'The body has no "event"'],
  ['an event that is not text', '{"event":42,"model":"post"}', 400, 'The body has no "event"'],
  ['an entry event with no model', '{"event":"entry.publish","entry":{}}', 400, 'The entry.publish body has no "model"'],
])('%s: %s (%s), nothing purged', async (_case, body, status, message) => {
  const { app, store } = await siteWithCms();
  expect(await blogText(app)).toContain('Primera entrada');
  store.create('posts', 'es', { title: 'Segunda entrada', slug: 'segunda', content: 'Dos', date: '2026-03-01' }, { published: true });
  const res = await deliver(app, body);
  expect(res.status).toBe(status);
  expect(res.body.error.message).toBe(message);
  expect(await blogText(app)).not.toContain('Segunda entrada');
});

test(`a body over ${MAX_BODY_BYTES} bytes is a 413 (streamed or announced), nothing purged`, async () => {
  const { app } = await siteWithCms();
  const huge = JSON.stringify({ ...webhookBody('entry.publish', 'post', { slug: 'x' }), padding: 'x'.repeat(MAX_BODY_BYTES) });
  const res = await deliver(app, huge);
  expect(res.status).toBe(413);
  expect(res.body.error.code).toBe('body_too_large');
  expect((await request(app).get('/blog')).status).toBe(200);
});

test('media changes purge everything that may show them: posts (covers), legal pages', async () => {
  const { app, store, first, privacy } = await siteWithCms();
  expect(await blogText(app)).toContain('Primera entrada');
  expect((await request(app).get('/privacy')).text).toContain('versión 1');
  store.edit(first, 'es', { title: 'Primera, con portada nueva' });
  store.publish(first, 'es');
  store.edit(privacy, 'es', { title: 'Privacidad, versión 2' });
  store.publish(privacy, 'es');
  const res = await deliver(app, { event: 'media.update', createdAt: '2026-05-01T00:00:00.000Z', media: { id: 7, url: '/uploads/x.jpg' } });
  expect(res.body).toEqual({ purged: ['cms:all'] });
  expect(await blogText(app)).toContain('Primera, con portada nueva');
  expect((await request(app).get('/privacy')).text).toContain('versión 2');
});

test('a flood of deliveries is capped per instance (429 with Retry-After); only authenticated ones count', async () => {
  const published: string[] = [];
  let now = 0;
  const app = express().post(
    '/cms/webhook',
    cmsWebhook({
      secret: SECRET,
      changes: { publish: async (topic) => void published.push(topic) },
      logger: createLogger('silent'),
      maxPerMinute: 3,
      now: () => now,
    }),
  );
  for (let i = 0; i < 5; i++)
    expect((await deliver(app as unknown as App, webhookBody('entry.publish', 'post', null), 'Bearer wrong')).status).toBe(401);
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await deliver(app as unknown as App, webhookBody('entry.publish', 'post', null))).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429]);
  expect(published).toHaveLength(3);
  const refused = await deliver(app as unknown as App, webhookBody('entry.publish', 'post', null));
  expect(refused.headers['retry-after']).toBe('60');
  now += 60_000;
  expect((await deliver(app as unknown as App, webhookBody('entry.publish', 'post', null))).status).toBe(200);
});

test('what a delivery is believed for: event, model, and the entry’s documentId, slug or page — checked; anything else is not read', () => {
  expect(changesOf(webhookBody('entry.publish', 'post', { documentId: 'abc', slug: 'Bad Slug/..', title: 'x'.repeat(10_000) }))).toEqual({
    changes: [{ model: 'post', documentId: 'abc', slug: undefined }],
  });
  expect(changesOf(webhookBody('entry.delete', 'post', { documentId: '../x', slug: 'ok' }))).toEqual({
    changes: [{ model: 'post', documentId: undefined, slug: 'ok' }],
  });
  expect(changesOf(webhookBody('entry.update', 'legal-page', { page: 'terms' }))).toEqual({
    changes: [{ model: 'legal-page', page: undefined }],
  });
  expect(changesOf(webhookBody('entry.create', 'post', { slug: 'hecho', publishedAt: '2026-01-01T00:00:00Z' }))).toEqual({
    changes: [{ model: 'post', documentId: undefined, slug: 'hecho' }],
  });
  expect(changesOf(webhookBody('entry.update', 'tag', { slug: 'datos' }))).toEqual({ changes: [{ model: 'post' }] });
  expect(changesOf(webhookBody('entry.update', 'acme-custom', {}))).toEqual({ changes: [{ model: 'branding', userName: 'acme' }] });
  expect(changesOf(webhookBody('entry.update', 'Evil/../x-custom', {}))).toEqual({ changes: [{ model: 'branding', userName: undefined }] });
  expect(changesOf({ event: 'releases.publish', release: {} })).toEqual({ changes: [{ model: 'all' }] });
  expect(changesOf(webhookBody('entry.publish', 'home', {}))).toEqual({ changes: [{ model: 'home' }] });
  expect(changesOf(webhookBody('entry.unpublish', 'case-study', { slug: 'x' }))).toEqual({ changes: [{ model: 'home' }] });
  expect(changesOf(webhookBody('entry.publish', 'practice', { practice: 'data' }))).toEqual({ changes: [{ model: 'home' }] });
  expect(changesOf(webhookBody('entry.update', 'author', { name: 'Ana' }))).toEqual({ changes: [{ model: 'home' }] });
});

const CHANGES: CmsChange[] = [
  { model: 'post', documentId: 'abc123', slug: 'una-entrada' },
  { model: 'post', documentId: 'abc123' },
  { model: 'post', slug: 'una-entrada' },
  { model: 'post' },
  { model: 'legal-page', page: 'privacy' },
  { model: 'legal-page' },
  { model: 'branding', userName: 'acme' },
  { model: 'branding' },
  { model: 'home' },
  { model: 'all' },
];

test.each(CHANGES)('the topic of %j names the same change on every instance', (change) => {
  expect(changeOfTopic(topicOf(change))).toEqual(change);
});

test.each([
  'cms:post:',
  'cms:post:/',
  'cms:post:a/b/c',
  'cms:post:../x/',
  'cms:post:/Bad',
  'cms:legal-page:terms',
  'cms:branding:../x',
  'cms:other:*',
  'cms:',
  'user:ana',
])('a topic that is not one (%s) changes nothing', (topic) => {
  expect(changeOfTopic(topic)).toBeNull();
});

test('a branding collection published (`{user}-custom`) is read again; the others stay cached', async () => {
  let color = '#111111';
  const cms = await startFakeStrapi(
    (req, res) =>
      sendJson(res, 200, { data: [{ id: 1, documentId: 'b1', colorNavbar: req.path === '/api/acme-customs' ? color : '#222222' }] }),
    { access: { public: [], tokens: { [READ_ONLY_TOKEN]: 'read-only' } } },
  );
  const { logger } = captureLogger();
  const branding = createStrapiBranding({
    client: createStrapiClient({ url: cms.url, token: READ_ONLY_TOKEN, logger }),
    defaultColor: loadBrand().colors.primary,
    ttlMs: 3_600_000,
    logger,
  });
  expect((await branding.getBranding('acme'))?.color).toBe('#111111');
  await branding.getBranding('other');
  color = '#333333';
  expect((await branding.getBranding('acme'))?.color).toBe('#111111');
  branding.forget('acme');
  expect((await branding.getBranding('acme'))?.color).toBe('#333333');
  const reads = cms.reads().length;
  await branding.getBranding('other');
  expect(cms.reads().length).toBe(reads);
});

/** What the store answers to `req` now, as status and body (to be sent later). */
function answerNow(store: DocumentStore, req: Received): { status: number; body: string } {
  let status = 200;
  let body = '';
  const capture = { destroyed: false, writeHead: (code: number) => void (status = code), end: (text: string) => void (body = text) };
  store.handler(req, capture as unknown as ServerResponse);
  return { status, body };
}

test('a read under way when the change arrives is not kept: it may have read the CMS before the change', async () => {
  const store = documentStore({ strapi: 5 });
  const id = store.create('posts', 'es', { title: 'Antes', slug: 'lenta', content: 'x', date: '2026-01-01' }, { published: true });
  let held: Promise<void> | null = null;
  const cms = await startFakeStrapi(
    async (req, res) => {
      // The answer is made at once (before the change), and sent when the test lets it go.
      const answer = answerNow(store, req);
      if (held) await held;
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(answer.body);
    },
    { access: { public: READS } },
  );
  const { logger } = captureLogger();
  const content = createStrapiContent({ client: createStrapiClient({ url: cms.url, logger }), ttlMs: 3_600_000, logger });
  let release!: () => void;
  held = new Promise((resolve) => (release = resolve));
  const slow = content.getPost('lenta', 'es');
  await expect.poll(() => cms.reads().length).toBe(1);
  store.edit(id, 'es', { title: 'Después' });
  store.publish(id, 'es');
  content.purge({ model: 'post', documentId: id, slug: 'lenta' });
  held = null;
  release();
  expect((await slow)?.title).toBe('Antes');
  expect((await content.getPost('lenta', 'es'))?.title).toBe('Después');
});

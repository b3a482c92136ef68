// The editors' redirects from content/redirects.json (server/content/redirects.ts): each entry
// checked alone when the content loads, chains collapsed, served only where the site would answer
// 404, the query kept, counted in /metrics. The same rules from Strapi: test/cms/redirects.test.ts.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import { PATHS } from '../server/base/paths.ts';
import { loadEmbeddedContent } from '../server/content/embedded.ts';
import { buildRedirectTable, withQuery } from '../server/content/redirects.ts';
import { createTestApp } from './helpers/app.ts';
import { writeContentDir } from './helpers/content-dir.ts';
import { capturingLogger } from './helpers/log.ts';

const TOKEN = 'metrics-token-that-is-long-enough-1234567';

/** A content folder whose content/redirects.json holds `redirects`. */
async function contentWith(redirects: unknown) {
  const dir = await writeContentDir([{ folder: 'hola', locale: 'es', title: 'Hola', date: '2026-01-01' }]);
  await writeFile(join(dir, 'redirects.json'), JSON.stringify(redirects));
  return loadEmbeddedContent(dir);
}

/** The site with these redirects in its content, and the warnings it logged at start. */
async function siteWith(redirects: unknown, env: Record<string, string> = {}) {
  const { logger, lines } = capturingLogger();
  const site = await createTestApp(env, { content: await contentWith(redirects), logger });
  const warnings = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 40);
  return { ...site, warnings };
}

const table = (entries: unknown[]) => buildRedirectTable(entries, (i) => `entry ${i + 1}`);

test('a redirect answers 301 by default, or 302 when it says so, with its Location', async () => {
  const { app } = await siteWith([
    { from: '/old-page', to: '/blog' },
    { from: '/en/promo', to: '/en/blog', status: 302 },
  ]);
  const permanent = await request(app).get('/old-page').expect(301);
  expect(permanent.headers.location).toBe('/blog');
  const temporary = await request(app).get('/en/promo').expect(302);
  expect(temporary.headers.location).toBe('/en/blog');
  expect((await request(app).head('/old-page')).status).toBe(301);
});

test('a 301 may be cached an hour; a 302 is never stored', async () => {
  const { app } = await siteWith([
    { from: '/old-page', to: '/blog' },
    { from: '/promo', to: '/blog', status: 302 },
  ]);
  expect((await request(app).get('/old-page')).headers['cache-control']).toBe('public, max-age=3600');
  expect((await request(app).get('/promo')).headers['cache-control']).toBe('private, no-store');
});

test("the request's query is kept, after the target's own, whose values win", async () => {
  const { app } = await siteWith([
    { from: '/old-page', to: '/blog' },
    { from: '/campaign', to: '/blog?utm_source=old&lang=es#top' },
  ]);
  expect((await request(app).get('/old-page?q=dashboard&page=2')).headers.location).toBe('/blog?q=dashboard&page=2');
  expect((await request(app).get('/campaign?utm_source=mail&x=1')).headers.location).toBe('/blog?utm_source=old&lang=es&x=1#top');
  expect(withQuery('https://example.org/a', '?b=2')).toBe('https://example.org/a?b=2');
});

test('a redirect matches its path as the routes do: in any case, with or without a trailing slash', async () => {
  const { app } = await siteWith([{ from: '/Old-Page', to: '/blog' }]);
  for (const path of ['/old-page', '/OLD-PAGE/', '/Old-Page/']) expect((await request(app).get(path)).headers.location, path).toBe('/blog');
});

test('an external URL may be a target, the query kept', async () => {
  const { app } = await siteWith([{ from: '/docs', to: 'https://docs.example.org/start' }]);
  const res = await request(app).get('/docs?ref=nav').expect(301);
  expect(res.headers.location).toBe('https://docs.example.org/start?ref=nav');
});

test('a chain A → B → C collapses to A → C, 301 only when every hop is 301', async () => {
  const { app } = await siteWith([
    { from: '/a', to: '/b?from=a' },
    { from: '/b', to: '/c', status: 302 },
    { from: '/c', to: '/blog' },
    { from: '/x', to: '/y' },
    { from: '/y', to: 'https://example.org/y' },
  ]);
  const a = await request(app).get('/a?q=1');
  expect([a.status, a.headers.location]).toEqual([302, '/blog?from=a&q=1']);
  const x = await request(app).get('/x');
  expect([x.status, x.headers.location]).toEqual([301, 'https://example.org/y']);
});

test("a chain keeps an earlier hop's # when the last target has none, as a browser does", () => {
  const built = table([
    { from: '/a', to: '/b#team' },
    { from: '/b', to: '/blog' },
  ]);
  expect(built.find('/a')?.to).toBe('/blog#team');
});

test('a target spelled unlike its route (/contact) is sent in the route’s own spelling: one hop, not two', () => {
  expect(table([{ from: '/contacto', to: '/contact?x=1' }]).find('/contacto')?.to).toBe('/Contact?x=1');
});

test('a loop is refused with a log line naming it, and the other redirects are served', async () => {
  const { app, warnings } = await siteWith([
    { from: '/ping', to: '/pong' },
    { from: '/pong', to: '/ping' },
    { from: '/into-loop', to: '/ping' },
    { from: '/self', to: '/self/' },
    { from: '/old-page', to: '/blog' },
  ]);
  const messages = warnings().map((line) => line.msg);
  expect(messages).toEqual([
    'Redirect content/redirects.json entry 4 (/self) refused: it redirects to itself (/self/)',
    'Redirect content/redirects.json entry 1 (/ping) refused: it is part of a loop: /ping → /pong → /ping',
    'Redirect content/redirects.json entry 2 (/pong) refused: it is part of a loop: /pong → /ping → /pong',
    'Redirect content/redirects.json entry 3 (/into-loop) refused: it leads into a loop: /into-loop → /ping → /pong → /ping',
  ]);
  for (const path of ['/ping', '/pong', '/into-loop', '/self']) expect((await request(app).get(path)).status, path).toBe(404);
  expect((await request(app).get('/old-page')).status).toBe(301);
});

test.each([
  ['/blog', '/blog'],
  ['/es/Contact', '/es/Contact'],
  ['/contact', '/Contact'],
  ['/en/blog/any-old-post', '/en/blog/:slug'],
  ['/en/blog/Not_A_Slug', '/en/blog/:slug'],
  ['/', '/'],
  ['/en/', '/en'],
])('a redirect from a route of the site (%s) is refused, and the page keeps answering', async (from, pattern) => {
  const refused = table([{ from, to: 'https://example.org' }]);
  expect(refused.size).toBe(0);
  expect(refused.refused).toEqual([
    { entry: `entry 1 (${from})`, reason: `"from" ${from} is the site's page ${pattern}: a redirect may not shadow a route of the site` },
  ]);
});

test('a real page beats a redirect: a route always answers, and the redirect of a path that is a page is refused at load', async () => {
  const { app, warnings } = await siteWith([
    { from: '/blog', to: '/old-page' },
    { from: '/legal', to: 'https://example.org' },
  ]);
  expect((await request(app).get('/blog')).status).toBe(200);
  expect((await request(app).get('/legal')).status).toBe(200);
  expect(warnings()).toHaveLength(2);
});

test.each([
  [{ from: 'old', to: '/blog' }, '"from" old must be a path beginning with /'],
  [{ from: '/old?x=1', to: '/blog' }, '"from" /old?x=1 must have no query or # (the visitor\'s query is kept)'],
  [{ from: '//evil.example', to: '/blog' }, '"from" //evil.example must not contain //'],
  [{ from: '/a/../blog', to: '/x' }, '"from" /a/../blog must not contain a . or .. segment'],
  [{ from: '/bad%zz', to: '/x' }, '"from" /bad%zz has a malformed percent-encoding'],
  [{ from: '/old', to: '//evil.example/' }, '"to" //evil.example/ must be a path beginning with / or an http(s) URL'],
  [{ from: '/old', to: '/\\evil.example' }, '"to" /\\evil.example must have no spaces, backslashes or control characters'],
  [{ from: '/old', to: 'javascript:alert(1)' }, '"to" javascript:alert(1) must be a path or an http(s) URL'],
  [{ from: '/old', to: 'https://user:pw@example.org' }, '"to" https://user:pw@example.org must not carry a user or a password'],
  [{ from: '/old', to: 'blog' }, '"to" blog must be a path beginning with / or an http(s) URL'],
  [{ from: '/old', to: '/blog', status: 307 }, 'status must be 301 or 302'],
  [{ from: '/old' }, 'to Invalid input: expected string, received undefined'],
])('a bad entry is refused alone with its reason: %j', (entry, reason) => {
  const built = table([entry, { from: '/fine', to: '/blog' }]);
  expect(built.refused.map((r) => r.reason)).toEqual([reason]);
  expect(built.find('/fine')).toEqual({ from: '/fine', to: '/blog', status: 301 });
});

test('a second redirect from the same path is refused: the first one wins', () => {
  const built = table([
    { from: '/old', to: '/blog' },
    { from: '/OLD/', to: '/legal' },
  ]);
  expect(built.find('/old')?.to).toBe('/blog');
  expect(built.refused).toEqual([{ entry: 'entry 2 (/OLD/)', reason: 'entry 1 redirects /old already (the first one is kept)' }]);
});

test('a path with accents is matched percent-encoded, as a browser asks for it', () => {
  expect(table([{ from: '/café', to: '/blog' }]).find('/caf%C3%A9')?.to).toBe('/blog');
});

test('a file that is not a JSON list stops the start, naming the file; no file is no redirects', async () => {
  const post = { folder: 'hola', locale: 'es', title: 'Hola', date: '2026-01-01' } as const;
  const dir = await writeContentDir([post]);
  await writeFile(join(dir, 'redirects.json'), '{"from": "/a"');
  await expect(loadEmbeddedContent(dir)).rejects.toThrow(/redirects\.json: not JSON/);
  await writeFile(join(dir, 'redirects.json'), '{"from": "/a", "to": "/b"}');
  await expect(loadEmbeddedContent(dir)).rejects.toThrow(/redirects\.json: must be a JSON list/);
  const none = await loadEmbeddedContent(await writeContentDir([post]));
  expect((await none.redirects?.())?.size).toBe(0);
});

test('redirects are only for GET and HEAD: another method to the path is not redirected', async () => {
  const { app } = await siteWith([{ from: '/old-page', to: '/blog' }]);
  expect((await request(app).post('/old-page').set('Origin', 'https://www.example.test')).status).toBe(405);
});

test('a client navigation to an old path is told where to go (/_data), as a page load is', async () => {
  const { app } = await siteWith([{ from: '/old-page', to: '/blog' }]);
  const res = await request(app).get('/_data').query({ path: '/old-page?q=1' }).expect(200);
  expect(res.body).toEqual({ kind: 'redirect', to: '/blog?q=1', status: 301 });
});

test("the editors' redirects answered are counted in /metrics by status (site_redirects_total)", async () => {
  const { app } = await siteWith(
    [
      { from: '/old-page', to: '/blog' },
      { from: '/promo', to: '/blog', status: 302 },
    ],
    { METRICS_TOKEN: TOKEN },
  );
  await request(app).get('/old-page').expect(301);
  await request(app).get('/old-page').expect(301);
  await request(app).get('/promo').expect(302);
  await request(app).get('/_data').query({ path: '/promo' }).expect(200);
  await request(app).get('/Contact/').expect(301); // the site's own spelling redirect: not an editor's
  const text = (await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  expect(text).toContain('site_redirects_total{status="301"} 2');
  expect(text).toContain('site_redirects_total{status="302"} 2');
  expect(text).toContain('http_requests_total{method="GET",route="redirect",status="301"} 2');
});

test('the shipped content/redirects.json loads with nothing refused', async () => {
  const list = JSON.parse(readFileSync(join(PATHS.content, 'redirects.json'), 'utf8')) as unknown[];
  const built = table(list);
  expect(built.refused).toEqual([]);
  expect(built.size).toBe(list.length);
});

// Streaming that streams (server/render/streamed.ts): a page's data that does not decide its
// status is waited for a moment only; when it is late, the shell (head, navbar, the page's frame)
// leaves at once and the section follows in the same response. Measured on a listening server
// against a fake Strapi whose home and case-study answers take 1.5 s.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, onTestFinished, test } from 'vitest';
import enMessages from '../locales/en/common.json' with { type: 'json' };
import { settleData, STREAM_WAIT_MS } from '../server/render/streamed.ts';
import { fixture, paginate, sendJson, sendStrapiError, startFakeStrapi } from './cms/fake-strapi.ts';
import { createTestApp } from './helpers/app.ts';
import { revealStreamed, streamedMoves } from './helpers/streamed-html.ts';

const CMS_DELAY_MS = 1500;

type Chunk = { at: number; text: string };

/** GET a path on a listening server, with the time (ms from the request) of every body chunk. */
function timedGet(port: number, path: string): Promise<{ status: number; chunks: Chunk[]; endedAt: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { 'Accept-Encoding': 'identity' } }, (res) => {
      const chunks: Chunk[] = [];
      res.setEncoding('utf8');
      res.on('data', (text: string) => chunks.push({ at: performance.now() - started, text }));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, chunks, endedAt: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const caseStudyTitles = (fixture('v5-case-studies') as { data: { title: string; locale: string }[] }).data
  .filter((entry) => entry.locale === 'en')
  .map((entry) => entry.title);

/** The site on a fake Strapi whose home and case studies answer after CMS_DELAY_MS, listening on a free port (both closed when the test ends). */
async function slowSite() {
  const cms = await startFakeStrapi((req, res) => {
    const later = (send: () => void) => void cms.delay(CMS_DELAY_MS).then(send);
    if (req.path === '/api/home') return later(() => sendJson(res, 200, fixture('v5-home')));
    if (req.path === '/api/case-studies')
      return later(() => sendJson(res, 200, paginate((fixture('v5-case-studies') as { data: unknown[] }).data, req.query)));
    sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
  });
  const site = await createTestApp({ CMS_URL: cms.url });
  const server = site.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await site.close();
  });
  return { site, port: (server.address() as AddressInfo).port };
}

test('a slow CMS does not hold the page: the first chunk of /en leaves within 600 ms with the navbar and the hero, the case studies follow in the same response', async () => {
  const { port } = await slowSite();
  const { status, chunks, endedAt } = await timedGet(port, '/en');
  expect(status).toBe(200);
  const first = chunks[0]!;
  expect(first.at).toBeLessThan(600);
  const shell = chunks
    .filter((chunk) => chunk.at < 600)
    .map((chunk) => chunk.text)
    .join('');
  expect(shell).toContain('<nav class="navbar');
  expect(shell).toContain(`<h1 id="hero-title">${enMessages.home.hero.title}</h1>`);
  // The late sections hold their place meanwhile, busy for assistive technology.
  expect(shell).toContain('<div class="streamed-fallback" aria-busy="true">');
  for (const title of caseStudyTitles) expect(shell).not.toContain(title);
  // The response ends once the CMS has answered, with the case studies in it, moved into place.
  expect(endedAt).toBeGreaterThanOrEqual(CMS_DELAY_MS - 50);
  const page = chunks.map((chunk) => chunk.text).join('');
  expect(streamedMoves(page).length).toBeGreaterThan(0);
  const shown = revealStreamed(page);
  const main = shown.slice(shown.indexOf('<main'), shown.indexOf('</main>'));
  for (const title of caseStudyTitles) expect(main).toContain(title);
  expect(main).not.toContain('streamed-fallback');
  // The boot data carries what arrived, for hydration.
  const boot = JSON.parse(/<script type="application\/json" id="__BOOT__"[^>]*>([\s\S]*?)<\/script>/.exec(page)![1]!) as {
    payload: { state: { data: { caseStudies: { title: string }[] } } };
  };
  expect(boot.payload.state.data.caseStudies.map((study) => study.title)).toEqual(caseStudyTitles);
  // Without JavaScript the holders are shown and the fallbacks hidden.
  expect(page).toMatch(
    /<noscript><style nonce="[^"]+">div\[hidden\]\[id\^="S:"\]\{display:block\}\.streamed-fallback\{display:none\}<\/style><\/noscript>/,
  );
});

test('once the CMS answers are cached, the page is whole in its first chunks and nothing streams', async () => {
  const { port } = await slowSite();
  await timedGet(port, '/en');
  const { chunks } = await timedGet(port, '/en');
  const page = chunks.map((chunk) => chunk.text).join('');
  expect(streamedMoves(page)).toEqual([]);
  expect(page).not.toContain('<noscript><style');
  for (const title of caseStudyTitles) expect(page).toContain(title);
});

test("a client navigation's /_data waits for every section: its JSON is whole", async () => {
  const { site } = await slowSite();
  const res = await request(site.app).get('/_data').query({ path: '/en' });
  expect(res.status).toBe(200);
  const data = res.body.payload.state.data as { caseStudies: { title: string }[]; content: { figures: unknown[] } };
  expect(data.caseStudies.map((study) => study.title)).toEqual(caseStudyTitles);
  expect(data.content.figures.length).toBeGreaterThan(0);
});

test('a field that arrives within the wait is data like any other; a later one stays a promise and streams', async () => {
  const late = new Promise((resolve) => setTimeout(() => resolve('late'), STREAM_WAIT_MS * 20));
  const settled = await settleData({ fast: Promise.resolve('fast'), plain: 1, late }, STREAM_WAIT_MS, () => undefined);
  expect(settled.fast).toBe('fast');
  expect(settled.plain).toBe(1);
  expect(settled.late).toBeInstanceOf(Promise);
  await expect(settled.late).resolves.toBe('late');
});

test('a streamed field that fails is null and logged: a section never fails its page', async () => {
  const errors: unknown[] = [];
  const settled = await settleData({ broken: Promise.reject(new Error('CMS down')) }, STREAM_WAIT_MS, (error) => errors.push(error));
  expect(settled.broken).toBeNull();
  expect(errors).toHaveLength(1);
});

test('without a wait every field is waited for (what /_data answers)', async () => {
  const settled = await settleData({ late: new Promise((resolve) => setTimeout(() => resolve(42), 50)) }, 0, () => undefined);
  expect(settled.late).toBe(42);
});

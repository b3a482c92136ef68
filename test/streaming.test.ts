// Streaming that streams (server/render/streamed.ts): a page's data that does not decide its
// status is waited for a moment only; when it is late, the shell (head, navbar, the page's frame)
// leaves at once and the section follows in the same response. Proven on a listening server
// against a fake Strapi whose home and case studies answer only when the test lets them: what
// arrives before that is what left without them.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, onTestFinished, test, vi } from 'vitest';
import enMessages from '../locales/en/common.json' with { type: 'json' };
import { settleData, STREAM_WAIT_MS } from '../server/render/streamed.ts';
import { fixture, paginate, sendJson, sendStrapiError, startFakeStrapi } from './cms/fake-strapi.ts';
import { createTestApp } from './helpers/app.ts';
import { revealStreamed, streamedMoves } from './helpers/streamed-html.ts';
import { scaled } from './helpers/time-scale.ts';

/** GET a path on a listening server: the body's chunks so far (`received()`), and the whole answer once it ends. */
function streamedGet(port: number, path: string) {
  const chunks: string[] = [];
  const answer = new Promise<{ status: number; page: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { 'Accept-Encoding': 'identity' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => chunks.push(text));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, page: chunks.join('') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { received: () => chunks.join(''), answer };
}

const caseStudyTitles = (fixture('v5-case-studies') as { data: { title: string; locale: string }[] }).data
  .filter((entry) => entry.locale === 'en')
  .map((entry) => entry.title);

/**
 * The site on a fake Strapi whose home and case studies answer once `answerCms()` is called,
 * listening on a free port (both closed when the test ends).
 */
async function slowSite() {
  let answerCms!: () => void;
  const cmsMayAnswer = new Promise<void>((resolve) => (answerCms = resolve));
  const cms = await startFakeStrapi((req, res) => {
    const later = (send: () => void) => void cmsMayAnswer.then(send);
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
  return { site, cms, answerCms, port: (server.address() as AddressInfo).port };
}

test('a slow CMS does not hold the page: the navbar and the hero of /en leave before the CMS answers, the case studies follow in the same response', async () => {
  const { port, answerCms } = await slowSite();
  const { received, answer } = streamedGet(port, '/en');
  let ended = false;
  void answer.then(() => (ended = true));
  // Everything that arrives before the CMS answers is the shell; the late sections hold their
  // place meanwhile, busy for assistive technology.
  await vi.waitFor(
    () => {
      expect(received()).toContain('<nav class="navbar');
      expect(received()).toContain(`<h1 id="hero-title">${enMessages.home.hero.title}</h1>`);
      expect(received()).toContain('<div class="streamed-fallback" aria-busy="true">');
    },
    { timeout: scaled(5_000), interval: 10 },
  );
  for (const title of caseStudyTitles) expect(received()).not.toContain(title);
  expect(ended).toBe(false);
  answerCms();
  // The response ends once the CMS has answered, with the case studies in it, moved into place.
  const { status, page } = await answer;
  expect(status).toBe(200);
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
  const { port, answerCms } = await slowSite();
  answerCms();
  await streamedGet(port, '/en').answer;
  const { page } = await streamedGet(port, '/en').answer;
  expect(streamedMoves(page)).toEqual([]);
  expect(page).not.toContain('<noscript><style');
  for (const title of caseStudyTitles) expect(page).toContain(title);
});

test("a client navigation's /_data waits for every section: its JSON is whole", async () => {
  const { site, cms, answerCms } = await slowSite();
  let answered = false;
  const asked = request(site.app)
    .get('/_data')
    .query({ path: '/en' })
    .then((res) => ((answered = true), res));
  await vi.waitFor(() => expect(cms.reads().map((r) => r.path)).toContain('/api/case-studies'), { timeout: scaled(5_000), interval: 10 });
  expect(answered).toBe(false);
  answerCms();
  const res = await asked;
  expect(res.status).toBe(200);
  const data = res.body.payload.state.data as { caseStudies: { title: string }[]; content: { figures: unknown[] } };
  expect(data.caseStudies.map((study) => study.title)).toEqual(caseStudyTitles);
  expect(data.content.figures.length).toBeGreaterThan(0);
});

test('a field that arrives within the wait is data like any other; a later one stays a promise and streams', async () => {
  let arrive!: (value: string) => void;
  const late = new Promise<string>((resolve) => (arrive = resolve));
  const settled = await settleData({ fast: Promise.resolve('fast'), plain: 1, late }, STREAM_WAIT_MS, () => undefined);
  expect(settled.fast).toBe('fast');
  expect(settled.plain).toBe(1);
  expect(settled.late).toBeInstanceOf(Promise);
  arrive('late');
  await expect(settled.late).resolves.toBe('late');
});

test('a streamed field that fails is null and logged: a section never fails its page', async () => {
  const errors: unknown[] = [];
  const settled = await settleData({ broken: Promise.reject(new Error('CMS down')) }, STREAM_WAIT_MS, (error) => errors.push(error));
  expect(settled.broken).toBeNull();
  expect(errors).toHaveLength(1);
});

test('without a wait every field is waited for (what /_data answers)', async () => {
  // Settles on a later turn of the event loop than any wait could have ended on.
  const late = new Promise((resolve) => setImmediate(() => setImmediate(() => resolve(42))));
  const settled = await settleData({ late }, 0, () => undefined);
  expect(settled.late).toBe(42);
});

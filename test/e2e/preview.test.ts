// The draft preview in Chromium, on the built server against a fake Strapi 5 with Draft &
// Publish (test/cms/fake-strapi-documents.ts): the preview link opens the draft under a banner
// that is seen (computed style, box inside the viewport) at 1366 and 390 px; leaving it shows the
// published page; and inside the CMS's preview pane (a frame on the CMS's origin, another site)
// it works with its partitioned cookie, which never reaches the site's own tabs. Screenshots go
// to /tmp/shots-publish/. Without JavaScript (the way out a plain form) it is
// test/ui/preview.test.ts's.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { documentStore } from '../cms/fake-strapi-documents.ts';
import { startFakeStrapi } from '../cms/fake-strapi.ts';
import { runAxe, setupSite, waitForHydration, type Server } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-publish';
const SECRET = 'preview-secret-that-is-long-enough-0123456789';
const TOKEN = 'preview-api-token';
const READS = ['post.find', 'post.findOne', 'legal-page.find', 'legal-page.findOne'];
const DRAFT_TITLE = 'Borrador: cómo preparar una auditoría de datos';
const PUBLISHED_TITLE = 'Cómo preparar una auditoría de datos';
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

const site = setupSite();
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/**
 * A fake Strapi (reached as `localhost`, so that its admin is another site than the server's
 * 127.0.0.1) with a published post whose draft was edited, and the built server on it.
 */
async function siteOnStrapi() {
  const store = documentStore({ strapi: 5 });
  const post = {
    title: PUBLISHED_TITLE,
    slug: 'auditoria-de-datos',
    description: 'Los pasos que seguimos.',
    content: 'Reunimos **inventario**, responsables y riesgos.',
    author: 'Lucía Martín',
    date: '2026-03-10',
  };
  const id = store.create('posts', 'es', post, { published: true });
  store.edit(id, 'es', { title: DRAFT_TITLE, content: 'Un párrafo que aún no se ha publicado.' });
  let adminPage = '';
  let publicPage = '';
  const cms = await startFakeStrapi(
    (req, res) => {
      if (req.path === '/uploads/admin.html' || req.path === '/uploads/public.html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(req.path === '/uploads/admin.html' ? adminPage : publicPage);
      }
      return store.handler(req, res);
    },
    { access: { public: READS, tokens: { [TOKEN]: READS } } },
  );
  const cmsUrl = cms.url.replace('127.0.0.1', 'localhost');
  const server = await site.startServer({ env: { CMS_URL: cmsUrl, CMS_PREVIEW_SECRET: SECRET, CMS_PREVIEW_TOKEN: TOKEN } });
  const previewLink = `${server.baseURL}/preview?${new URLSearchParams({ secret: SECRET, type: 'post', slug: 'auditoria-de-datos', locale: 'es' })}`;
  // What Strapi's admin shows: the site's preview in a frame (config/admin.ts preview.handler).
  const frame = (id: string, src: string) =>
    `<!DOCTYPE html><html><head><title>Strapi</title></head><body style="margin:0"><iframe id="${id}" src="${src}" style="width:1000px;height:700px;border:0"></iframe></body></html>`;
  adminPage = frame('preview', previewLink);
  publicPage = frame('page', `${server.baseURL}/blog/auditoria-de-datos`);
  return { server, cmsUrl, previewLink };
}

function newPage(server: Server, viewport: { width: number; height: number }, javaScript = true): Promise<Page> {
  return site.newPage({ server, viewport, javaScriptEnabled: javaScript, consent: true });
}

/** The banner as the visitor sees it: its computed style and box, and the page's width. */
async function bannerSeen(page: Page) {
  const banner = page.getByRole('status').filter({ hasText: 'Vista previa: borrador sin publicar' });
  expect(await banner.count()).toBe(1);
  expect(await banner.isVisible()).toBe(true);
  return banner.evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    const button = element.querySelector('button')!.getBoundingClientRect();
    return {
      display: style.display,
      visibility: style.visibility,
      opacity: style.opacity,
      background: style.backgroundColor,
      color: style.color,
      box: { top: box.top, bottom: box.bottom, left: box.left, right: box.right },
      button: { top: button.top, bottom: button.bottom, right: button.right, height: button.height },
      viewport: { width: innerWidth, height: innerHeight },
      scrollWidth: document.documentElement.scrollWidth,
    };
  });
}

function expectSeen(seen: Awaited<ReturnType<typeof bannerSeen>>) {
  expect(seen.display).toBe('flex');
  expect(seen.visibility).toBe('visible');
  expect(seen.opacity).toBe('1');
  // Its own colours: white on purple (contrast above 10:1).
  expect(seen.background).toBe('rgb(75, 35, 120)');
  expect(seen.color).toBe('rgb(255, 255, 255)');
  // At the top, whole, inside the viewport; the way out too; no sideways scrolling.
  expect(seen.box.top).toBeGreaterThanOrEqual(0);
  expect(seen.box.bottom).toBeLessThanOrEqual(seen.viewport.height / 3);
  expect(seen.box.left).toBeGreaterThanOrEqual(0);
  expect(seen.box.right).toBeLessThanOrEqual(seen.viewport.width);
  expect(seen.button.bottom).toBeLessThanOrEqual(seen.box.bottom);
  expect(seen.button.right).toBeLessThanOrEqual(seen.viewport.width);
  expect(seen.button.height).toBeGreaterThanOrEqual(24);
  expect(seen.scrollWidth).toBeLessThanOrEqual(seen.viewport.width);
}

test('the preview link opens the draft under a banner seen at 1366 and 390 px; leaving it shows the published post', async () => {
  const { server, previewLink } = await siteOnStrapi();
  for (const viewport of VIEWPORTS) {
    const page = await newPage(server, viewport);
    const response = await page.goto(previewLink);
    expect(new URL(page.url()).pathname).toBe('/blog/auditoria-de-datos');
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await waitForHydration(page);
    await expect.poll(() => page.locator('h1').textContent()).toBe(DRAFT_TITLE);
    expectSeen(await bannerSeen(page));
    await page.screenshot({ path: `${SHOTS}/preview-draft-${viewport.width}.png` });
    await page.getByRole('button', { name: 'Salir de la vista previa' }).click();
    await page.waitForURL((url) => url.pathname === '/blog/auditoria-de-datos' && url.search === '');
    await expect.poll(() => page.locator('h1').textContent()).toBe(PUBLISHED_TITLE);
    expect(await page.locator('.preview-banner').count()).toBe(0);
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('cms.preview');
    await page.screenshot({ path: `${SHOTS}/preview-left-${viewport.width}.png` });
  }
});

test('inside the CMS’s preview pane (a frame on the CMS’s origin, another site): the draft with its banner; the site’s own tab still shows the published post', async () => {
  const { server, cmsUrl } = await siteOnStrapi();
  const page = await newPage(server, { width: 1366, height: 768 });
  await page.goto(`${cmsUrl}/uploads/admin.html`);
  const frame = page.frameLocator('#preview');
  await expect.poll(() => frame.locator('h1').textContent(), { timeout: scaled(10_000) }).toBe(DRAFT_TITLE);
  expect(await frame.getByRole('status').filter({ hasText: 'Vista previa: borrador sin publicar' }).isVisible()).toBe(true);
  await page.screenshot({ path: `${SHOTS}/preview-in-cms-frame.png` });
  // The frame's cookie is partitioned under the CMS's site: the site's own tab is not in preview.
  const tab = await page.context().newPage();
  await tab.goto(`${server.baseURL}/blog/auditoria-de-datos`);
  expect(await tab.locator('h1').textContent()).toBe(PUBLISHED_TITLE);
  expect(await tab.locator('.preview-banner').count()).toBe(0);
  const previewCookies = (await page.context().cookies()).filter((c) => c.name === 'cms.preview');
  expect(previewCookies).toMatchObject([{ sameSite: 'None', secure: true, httpOnly: true }]);
  // The way out inside the frame: the preview ends there, and the published page (which may
  // not be framed) opens in a tab.
  await frame.getByRole('button', { name: 'Salir de la vista previa' }).click();
  await expect.poll(() => frame.locator('h1').textContent(), { timeout: scaled(10_000) }).toBe('Vista previa terminada');
  await page.screenshot({ path: `${SHOTS}/preview-in-cms-frame-ended.png` });
  const link = frame.getByRole('link', { name: 'Ver la página publicada (en otra pestaña)' });
  expect(await link.getAttribute('href')).toBe('/blog/auditoria-de-datos');
  const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await opened!.waitForLoadState();
  expect(await opened!.locator('h1').textContent()).toBe(PUBLISHED_TITLE);
  // The frame's cookie is gone with it.
  expect((await page.context().cookies()).filter((c) => c.name === 'cms.preview')).toEqual([]);
});

test('outside the preview the site’s pages refuse to be framed, by the CMS too', async () => {
  const { server, cmsUrl } = await siteOnStrapi();
  const page = await newPage(server, { width: 1366, height: 768 });
  const blocked = page.waitForEvent('console', { predicate: (m) => m.text().includes('frame-ancestors'), timeout: scaled(10_000) });
  await page.goto(`${cmsUrl}/uploads/public.html`);
  expect((await blocked).text()).toContain("frame-ancestors 'none'");
  // Whatever the browser shows in a refused frame (an error page or nothing), never the page.
  expect(await page.frameLocator('#page').getByText(PUBLISHED_TITLE).count()).toBe(0);
});

test('axe-core finds no accessibility violation on a preview page (the banner and its way out)', async () => {
  const { server, previewLink } = await siteOnStrapi();
  // axe: the injected axe-core script carries no nonce, so the CSP is bypassed (as in a11y.test.ts).
  const page = await site.newPage({ server, axe: true, consent: true });
  await page.goto(previewLink);
  await waitForHydration(page);
  expect(await page.locator('.preview-banner').count()).toBe(1);
  const results = await runAxe(page);
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

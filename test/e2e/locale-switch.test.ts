// Switching locale loads the other language's messages on demand, once: a client navigation
// without a reload, the messages from a hashed JSON asset requested a single time however often
// the visitor switches back and forth, and the document (lang, title, canonical, hreflang
// alternates) following the page shown.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';

declare global {
  interface Window {
    __localeMarker?: number;
  }
}

type Head = { lang: string | null; title: string; canonical: string | null; alternates: Record<string, string> };

const site = setupSite();

/** The head a full page load of `path` carries, read from the server's HTML. */
async function serverHead(page: Page, path: string): Promise<Head> {
  const html = await (await page.context().request.get(path)).text();
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  const alternates: Record<string, string> = {};
  for (const tag of html.match(/<link [^>]*rel="alternate"[^>]*>/g) ?? []) {
    const lang = attr(tag, 'hreflang') ?? attr(tag, 'hrefLang');
    const href = attr(tag, 'href');
    if (lang && href) alternates[lang] = href;
  }
  const canonicalTag = /<link [^>]*rel="canonical"[^>]*>/.exec(html)?.[0] ?? '';
  return {
    lang: /<html[^>]* lang="([^"]+)"/.exec(html)?.[1] ?? null,
    title: decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''),
    canonical: attr(canonicalTag, 'href'),
    alternates,
  };
}

function clientHead(page: Page): Promise<Head> {
  return page.evaluate(() => ({
    lang: document.documentElement.getAttribute('lang'),
    title: document.title,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    alternates: Object.fromEntries(
      [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((el) => [
        el.getAttribute('hreflang') ?? '',
        el.getAttribute('href') ?? '',
      ]),
    ),
  }));
}

describe('locale switching', () => {
  it('switching back and forth happens without a reload, loads the other messages once, and the head follows', async () => {
    const origin = site.baseURL;
    const page = await site.newPage();
    const documents: string[] = [];
    const messageRequests: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/assets/messages-')) messageRequests.push(path);
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(path);
    });

    await page.goto('/Contact');
    await waitForHydration(page);
    documents.length = 0;
    await page.evaluate(() => {
      window.__localeMarker = 1;
    });
    // The page's own (Spanish) messages: one request, the head's preload, which the entry's
    // fetch used (a second request would mean the preload was wasted).
    expect(messageRequests).toHaveLength(1);
    expect(messageRequests[0]).toMatch(/^\/assets\/messages-es-[0-9a-f]+\.json$/);

    const spanish = await serverHead(page, '/Contact');
    const english = await serverHead(page, '/en/Contact');
    // Sanity: the two heads differ where they should.
    expect(spanish).toMatchObject({ lang: 'es', title: expect.stringContaining('Contacto') as unknown, canonical: `${origin}/Contact` });
    expect(english).toMatchObject({
      lang: 'en',
      title: expect.stringMatching(/^Contact\b/) as unknown,
      canonical: `${origin}/en/Contact`,
    });
    expect(english.alternates).toEqual({ es: `${origin}/Contact`, en: `${origin}/en/Contact`, 'x-default': `${origin}/Contact` });
    expect(await clientHead(page)).toEqual(spanish);

    const switcher = page.locator('ul.locale-switcher a');
    const steps = [
      { to: 'English', path: '/en/Contact', head: english, h1: 'Contact', next: 'Español' },
      { to: 'Español', path: '/Contact', head: spanish, h1: 'Contacto', next: 'English' },
      { to: 'English', path: '/en/Contact', head: english, h1: 'Contact', next: 'Español' },
      { to: 'Español', path: '/Contact', head: spanish, h1: 'Contacto', next: 'English' },
    ];
    for (const step of steps) {
      expect(await switcher.innerText()).toBe(step.to);
      await switcher.click();
      await page.waitForURL((url) => url.pathname === step.path);
      await expect.poll(() => page.locator('main h1').innerText()).toBe(step.h1);
      await expect.poll(() => switcher.innerText()).toBe(step.next);
      await expect.poll(() => clientHead(page)).toEqual(step.head);
    }

    // No reload at any point.
    expect(await page.evaluate(() => window.__localeMarker)).toBe(1);
    expect(documents).toEqual([]);
    // Each locale's messages were asked for exactly once: Spanish with the page, English on
    // the first switch; switching back and forth used what was loaded.
    expect(messageRequests.filter((p) => p.startsWith('/assets/messages-en-'))).toHaveLength(1);
    expect(messageRequests.filter((p) => p.startsWith('/assets/messages-es-'))).toHaveLength(1);
    // Not even from the HTTP cache: the page itself made a single request for each.
    const fetched = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.startsWith('/assets/messages-')),
    );
    expect(fetched).toHaveLength(2);
    expect(fetched[0]).toMatch(/^\/assets\/messages-es-[0-9a-f]+\.json$/);
    expect(fetched[1]).toMatch(/^\/assets\/messages-en-[0-9a-f]+\.json$/);
  });
});

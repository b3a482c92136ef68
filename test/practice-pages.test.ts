// The practices' and case studies' pages as a visitor gets them (supertest), in both languages:
// their sections, their links (home, navbar, footer, the contact form with the practice chosen),
// hreflang, and the rules of a post's page that come with them: its author and related posts.
import request from 'supertest';
import { expect, test } from 'vitest';
import enMessages from '../locales/en/common.json' with { type: 'json' };
import esMessages from '../locales/es/common.json' with { type: 'json' };
import { localeHref, LOCALE_CODES } from '../shared/locales.ts';
import { PRACTICES } from '../shared/practices.ts';
import { relatedPosts } from '../shared/related-posts.ts';
import type { PostSummary } from '../shared/page-data.ts';
import { ORIGIN, testApp } from './helpers/app.ts';
import { revealStreamed } from './helpers/streamed-html.ts';

const MESSAGES = { es: esMessages, en: enMessages } as const;

function mainOf(streamed: string): string {
  const html = revealStreamed(streamed);
  return html.slice(html.indexOf('<main'), html.indexOf('</main>'));
}

function links(html: string): [string, string][] {
  return [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '').trim()]);
}

async function get(url: string) {
  return request(await testApp()).get(url);
}

test.each(LOCALE_CODES)(
  'a practice’s page (%s) says what it is, how the work goes, typical engagements and a case study, and opens the contact form with it chosen',
  async (locale) => {
    const t = MESSAGES[locale];
    const res = await get(localeHref('/practices/data', locale));
    expect(res.status).toBe(200);
    const main = mainOf(res.text);
    expect(main).toContain(`<h1>${t.home.services.items.data.title}</h1>`);
    expect(main).toContain(`<h2 id="practice-how">${t.practices.how}</h2>`);
    expect(main).toContain(`<h2 id="practice-engagements">${t.practices.engagements}</h2>`);
    expect(main.match(/<li class="step">/g)).toHaveLength(4);
    expect(main).toContain(`<h2 id="practice-case">${t.practices.caseStudy}</h2>`);
    expect(links(main)).toContainEqual([localeHref('/case-studies/nortia-demand-forecast', locale), expect.stringMatching(/./)]);
    expect(links(main)).toContainEqual([`${localeHref('/Contact', locale)}?practice=data`, t.cta.contact]);
    // The other practices, each to its page.
    for (const other of PRACTICES.filter((p) => p !== 'data')) {
      expect(links(main)).toContainEqual([localeHref(`/practices/${other}`, locale), t.home.services.items[other].title]);
    }
  },
);

test('a practice’s page names its translation (hreflang), and a word that is no practice is not found', async () => {
  const res = await get('/en/practices/sustainability');
  expect(res.text).toContain(`<link rel="alternate" hreflang="es" href="${ORIGIN}/practices/sustainability">`);
  expect(res.text).toContain(`<link rel="alternate" hreflang="x-default" href="${ORIGIN}/practices/sustainability">`);
  expect((await get('/en/practices/marketing')).status).toBe(404);
  expect((await get('/practices/Data')).status).toBe(404);
});

test.each(LOCALE_CODES)('the practices’ page (%s) lists every practice, each leading to its page', async (locale) => {
  const t = MESSAGES[locale];
  const main = mainOf((await get(localeHref('/practices', locale))).text);
  for (const practice of PRACTICES) {
    expect(links(main)).toContainEqual([localeHref(`/practices/${practice}`, locale), t.home.services.items[practice].title]);
  }
});

test.each(LOCALE_CODES)(
  'a case study’s page (%s) shows the client, the challenge, how it was done, the results in figures, the quote and its practice',
  async (locale) => {
    const t = MESSAGES[locale];
    const res = await get(localeHref('/case-studies/nortia-demand-forecast', locale));
    expect(res.status).toBe(200);
    const main = mainOf(res.text);
    expect(main).toMatch(locale === 'es' ? /Nortia Logística · Transporte y logística/ : /Nortia Logistics · Transport and logistics/);
    for (const heading of [t.caseStudies.challenge, t.caseStudies.approach, t.caseStudies.results])
      expect(main).toContain(`>${heading}</h2>`);
    // The headline result and the two further ones.
    expect(main.match(/<li class="figure">/g)).toHaveLength(3);
    expect(main).toMatch(/<blockquote><p>[^<]+<\/p><\/blockquote><figcaption>Jordi Vidal/);
    expect(links(main)).toContainEqual([
      localeHref('/practices/data', locale),
      t.caseStudies.practiceLink.replace('{{practice}}', t.home.services.items.data.title),
    ]);
    expect(links(main)).toContainEqual([`${localeHref('/Contact', locale)}?practice=data`, t.cta.contact]);
  },
);

test('a case study that is not written is not found', async () => {
  expect((await get('/en/case-studies/no-such-story')).status).toBe(404);
});

test.each(LOCALE_CODES)('the case studies’ page (%s) lists every case study, each title leading to its page', async (locale) => {
  const main = mainOf((await get(localeHref('/case-studies', locale))).text);
  for (const slug of ['valdeluz-online-services', 'nortia-demand-forecast', 'olmedal-sustainability-report']) {
    expect(links(main).map(([href]) => href)).toContain(localeHref(`/case-studies/${slug}`, locale));
  }
});

test.each(LOCALE_CODES)(
  'the home (%s) links each case study to its page and to them all; the navbar and the footer to the practices and the case studies, the footer to the site search',
  async (locale) => {
    const t = MESSAGES[locale];
    const html = revealStreamed((await get(localeHref('/', locale))).text);
    const all = links(html);
    expect(all).toContainEqual([localeHref('/case-studies/valdeluz-online-services', locale), expect.stringMatching(/./)]);
    expect(all).toContainEqual([localeHref('/case-studies', locale), t.caseStudies.all]);
    const navbar = html.slice(html.indexOf('<nav'), html.indexOf('</nav>'));
    expect(links(navbar)).toEqual(
      expect.arrayContaining([
        [localeHref('/practices', locale), t.nav.practices],
        [localeHref('/case-studies', locale), t.nav.caseStudies],
        [localeHref('/blog', locale), t.nav.blog],
      ]),
    );
    const footer = html.slice(html.indexOf('<footer'), html.indexOf('</footer>'));
    for (const practice of PRACTICES) {
      expect(links(footer)).toContainEqual([localeHref(`/practices/${practice}`, locale), t.home.services.items[practice].title]);
    }
    expect(links(footer)).toContainEqual([localeHref('/case-studies', locale), t.footer.caseStudies]);
    // The site search is one link away from every page.
    expect(links(footer)).toContainEqual([localeHref('/search', locale), t.footer.links.search]);
  },
);

test.each(LOCALE_CODES)('a post’s page (%s) shows its author (name, role, photo, bio) and up to three related posts', async (locale) => {
  const t = MESSAGES[locale];
  const main = mainOf((await get(localeHref('/blog/web-accessibility-2026', locale))).text);
  const author = main.slice(main.indexOf('<aside class="post-author"'), main.indexOf('</aside>'));
  expect(author).toContain(`aria-label="${t.blog.author}"`);
  expect(author).toContain('<h2>Daniel Moreno</h2>');
  expect(author).toMatch(/<img src="\/assets\/content\/[0-9a-f]{16}[^"]*" width="72" height="72" alt=""/);
  expect(author).toMatch(/<div class="post-author-bio"><p>.+<\/p>/);
  const related = main.slice(main.indexOf('<nav class="related-posts"'));
  expect(related).toContain(`<h2 id="related-title">${t.blog.related}</h2>`);
  const items = related.match(/<li>/g) ?? [];
  expect(items.length).toBeGreaterThan(0);
  expect(items.length).toBeLessThanOrEqual(3);
  expect(related).not.toContain('/blog/web-accessibility-2026"');
});

function post(slug: string, date: string, tags: string[]): PostSummary {
  return {
    slug,
    title: slug,
    description: `About ${slug}`,
    date,
    author: 'A',
    locale: 'en',
    tags: tags.map((name) => ({ slug: name, name })),
    cover: null,
    translations: {},
  };
}

test('related posts: the most tags shared first, ties and the rest newest first, never the post itself, at most three', () => {
  // Newest first, as the sources list them.
  const posts = [
    post('newest-none', '2026-06-01', ['other']),
    post('one-shared', '2026-05-01', ['a']),
    post('self', '2026-04-01', ['a', 'b']),
    post('two-shared', '2026-03-01', ['a', 'b']),
    post('old-one-shared', '2026-02-01', ['b']),
    post('oldest-none', '2026-01-01', []),
  ];
  const self = posts[2]!;
  expect(relatedPosts(posts, self).map((p) => p.slug)).toEqual(['two-shared', 'one-shared', 'old-one-shared']);
  expect(relatedPosts(posts, post('self', '2026-04-01', [])).map((p) => p.slug)).toEqual(['newest-none', 'one-shared', 'two-shared']);
  expect(relatedPosts([self], self)).toEqual([]);
  expect(relatedPosts(posts, self)[0]).toEqual({
    slug: 'two-shared',
    title: 'two-shared',
    description: 'About two-shared',
    date: '2026-03-01',
  });
});

test('related posts of a blog of 10,000 posts are found in one pass (the best three kept, never a sort of them all)', () => {
  const many = Array.from({ length: 10_000 }, (_, i) => post(`p${i}`, '2026-01-01', i % 97 === 0 ? ['x', 'y'] : i % 7 === 0 ? ['x'] : []));
  const related = relatedPosts(many, post('me', '2026-01-01', ['x', 'y']));
  expect(related.map((p) => p.slug)).toEqual(['p0', 'p97', 'p194']);
});

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { expect, test } from 'vitest';
import { FEED_SIZE } from '../../server/seo/feeds.ts';
import { createTestApp, ORIGIN, testApp } from '../helpers/app.ts';
import { contentOf, testCover, testPost, type TestPost } from './helpers.ts';

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  trimValues: false,
  isArray: (_name, path) =>
    [
      'rss.channel.item',
      'rss.channel.item.category',
      'feed.entry',
      'feed.link',
      'feed.entry.link',
      'feed.entry.author',
      'feed.entry.category',
    ].includes(String(path)),
});

/**
 * Parses a feed after checking that it is well-formed XML: the parser's validator (tags,
 * attributes, entities), plus two rules it does not check: only characters XML 1.0 allows, and
 * no `]]>` outside a CDATA section.
 */
function parseFeed(xml: string): Node {
  const valid = XMLValidator.validate(xml);
  expect(valid, `well-formed XML: ${JSON.stringify(valid)}`).toBe(true);
  // eslint-disable-next-line no-control-regex -- the control characters are what must be absent
  expect(xml, 'only XML 1.0 characters').not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
  expect(xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''), 'no ]]> outside CDATA').not.toContain(']]>');
  return parser.parse(xml) as Node;
}

function text(node: unknown): string {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && '#text' in node) return String((node as Node)['#text']);
  throw new Error(`No text in ${JSON.stringify(node)}`);
}

const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** What a reader shows of a type="html" text. */
function htmlToText(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity] ?? entity);
}

// RFC 822 dates as RSS 2.0 wants them (with a four-digit year, as RFC 1123 and every reader use).
const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/;
// RFC 3339 dates as Atom wants them.
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const FEEDS = [
  { path: '/blog/rss.xml', format: 'rss', locale: 'es', self: '/blog/rss.xml' },
  { path: '/es/blog/rss.xml', format: 'rss', locale: 'es', self: '/blog/rss.xml' },
  { path: '/en/blog/rss.xml', format: 'rss', locale: 'en', self: '/en/blog/rss.xml' },
  { path: '/blog/atom.xml', format: 'atom', locale: 'es', self: '/blog/atom.xml' },
  { path: '/es/blog/atom.xml', format: 'atom', locale: 'es', self: '/blog/atom.xml' },
  { path: '/en/blog/atom.xml', format: 'atom', locale: 'en', self: '/en/blog/atom.xml' },
] as const;
const CONTENT_TYPE = { rss: 'application/rss+xml; charset=utf-8', atom: 'application/atom+xml; charset=utf-8' } as const;

test.each(FEEDS)('$path is the $locale $format feed: its content type, cached like the sitemap', async (feed) => {
  const app = await testApp();
  const [res, sitemap] = await Promise.all([request(app).get(feed.path), request(app).get('/sitemap.xml')]);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(CONTENT_TYPE[feed.format]);
  expect(res.headers['cache-control']).toBe(sitemap.headers['cache-control']);
  expect(res.headers['cache-control']).toBe('public, max-age=3600');
  // Never sniffed as a page.
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.text).not.toMatch(/<script/i);
});

test.each(FEEDS.filter((f) => f.format === 'rss'))(
  '$path has what RSS 2.0 requires: channel title, link, description; item title, link, guid, RFC 822 pubDate',
  async (feed) => {
    const res = await request(await testApp()).get(feed.path);
    const rss = parseFeed(res.text).rss as Node;
    expect(rss['@version']).toBe('2.0');
    const channel = rss.channel as Node;
    expect(text(channel.title)).toBe(feed.locale === 'es' ? 'Blog de the product' : 'the product blog');
    expect(text(channel.link)).toBe(`${ORIGIN}${feed.locale === 'es' ? '' : '/en'}/blog`);
    expect(text(channel.description).length).toBeGreaterThan(0);
    expect(text(channel.language)).toBe(feed.locale);
    expect(text(channel.lastBuildDate)).toMatch(RFC_822);
    expect(channel['atom:link']).toMatchObject({ '@rel': 'self', '@href': ORIGIN + feed.self });
    const items = channel.item as Node[];
    // content/blog: five posts in Spanish (one only in Spanish), four in English.
    expect(items).toHaveLength(feed.locale === 'es' ? 5 : 4);
    for (const item of items) {
      expect(text(item.title).length).toBeGreaterThan(0);
      expect(text(item.link)).toMatch(new RegExp(`^${ORIGIN}${feed.locale === 'es' ? '' : '/en'}/blog/[a-z0-9-]+$`));
      expect(text(item.guid)).toBe(text(item.link));
      expect(text(item.pubDate)).toMatch(RFC_822);
      expect(text(item.description).length).toBeGreaterThan(0);
      expect(text(item['dc:creator']).length).toBeGreaterThan(0);
    }
    // Newest first.
    const dates = items.map((item) => Date.parse(text(item.pubDate)));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  },
);

test.each(FEEDS.filter((f) => f.format === 'atom'))(
  '$path has what Atom requires: feed id, title, updated; entry id, title, updated, link',
  async (feed) => {
    const res = await request(await testApp()).get(feed.path);
    const atom = parseFeed(res.text).feed as Node;
    expect(atom['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(text(atom.id)).toBe(`${ORIGIN}${feed.locale === 'es' ? '' : '/en'}/blog`);
    expect(text(atom.title)).toBe(feed.locale === 'es' ? 'Blog de the product' : 'the product blog');
    expect(text(atom.updated)).toMatch(RFC_3339);
    expect(atom.link as Node[]).toContainEqual({ '@rel': 'self', '@href': ORIGIN + feed.self });
    const entries = atom.entry as Node[];
    expect(entries).toHaveLength(feed.locale === 'es' ? 5 : 4);
    for (const entry of entries) {
      expect(text(entry.id)).toMatch(/^https:\/\//);
      expect(text(entry.title).length).toBeGreaterThan(0);
      expect(text(entry.updated)).toMatch(RFC_3339);
      expect(text(entry.published)).toMatch(RFC_3339);
      expect((entry.link as Node[])[0]!['@href']).toBe(text(entry.id));
      expect(text((entry.author as Node[])[0]!.name).length).toBeGreaterThan(0);
    }
    // The feed was updated when its newest entry was.
    expect(text(atom.updated)).toBe(text(entries[0]!.updated));
  },
);

test('/es/blog/… serves the same feeds as the unprefixed form, which they name as their own', async () => {
  const app = await testApp();
  for (const file of ['rss.xml', 'atom.xml']) {
    const [plain, prefixed] = await Promise.all([request(app).get(`/blog/${file}`), request(app).get(`/es/blog/${file}`)]);
    expect(prefixed.text).toBe(plain.text);
  }
});

test('each language’s feed carries that language’s posts', async () => {
  const app = await testApp();
  const es = (await request(app).get('/blog/rss.xml')).text;
  const en = (await request(app).get('/en/blog/rss.xml')).text;
  expect(es).toContain('Cómo preparar el briefing de un experto independiente');
  expect(es).not.toContain('How to brief an independent expert');
  expect(en).toContain('How to brief an independent expert');
});

test(`a feed carries the newest ${FEED_SIZE} posts of its language`, async () => {
  const posts = Array.from({ length: FEED_SIZE + 5 }, (_, i) =>
    testPost({ slug: `post-${String(i).padStart(2, '0')}`, date: `2026-01-${String(i + 1).padStart(2, '0')}` }),
  );
  const { app } = await createTestApp(undefined, { content: contentOf(posts) });
  const rss = parseFeed((await request(app).get('/blog/rss.xml')).text).rss as Node;
  const slugs = ((rss.channel as Node).item as Node[]).map((item) => text(item.link).split('/').pop());
  expect(slugs).toHaveLength(FEED_SIZE);
  expect(slugs[0]).toBe('post-24');
  expect(slugs.at(-1)).toBe('post-05');
  const atom = parseFeed((await request(app).get('/blog/atom.xml')).text).feed as Node;
  expect(atom.entry as Node[]).toHaveLength(FEED_SIZE);
});

test('an empty blog gives valid feeds with no items', async () => {
  const { app } = await createTestApp(undefined, { content: contentOf([]) });
  const rss = parseFeed((await request(app).get('/blog/rss.xml')).text).rss as Node;
  expect((rss.channel as Node).item).toBeUndefined();
  const atom = parseFeed((await request(app).get('/en/blog/atom.xml')).text).feed as Node;
  expect(text(atom.updated)).toMatch(RFC_3339);
});

const HOSTILE: TestPost = testPost({
  slug: 'hostile',
  title: '<script>alert(1)</script> R&D ]]> and ]]> again\u0001',
  description: '<img src=x onerror=alert(1)> & ]]> "quoted"',
  author: 'Ana & <Co>',
  tags: [
    { slug: 'r-d', name: 'R&D <b>' },
    { slug: 'quotes', name: '"q" ]]>' },
  ],
});
const HOSTILE_TITLE = '<script>alert(1)</script> R&D ]]> and ]]> again';

test('hostile titles, summaries, authors and tags stay text in RSS (<script>, &, ]]>, control characters)', async () => {
  const { app } = await createTestApp(undefined, { content: contentOf([HOSTILE]) });
  const res = await request(app).get('/blog/rss.xml');
  const item = (((parseFeed(res.text).rss as Node).channel as Node).item as Node[])[0]!;
  expect(item.script).toBeUndefined();
  expect(JSON.stringify(item)).not.toContain('"script"');
  expect(text(item.title)).toBe(HOSTILE_TITLE);
  // An RSS description is HTML: the summary's text, escaped.
  expect(htmlToText(text(item.description))).toBe('<img src=x onerror=alert(1)> & ]]> "quoted"');
  expect(text(item['dc:creator'])).toBe('Ana & <Co>');
  expect((item.category as unknown[]).map(text)).toEqual(['R&D <b>', '"q" ]]>']);
});

test('hostile titles, summaries, authors and tags stay text in Atom (<script>, &, ]]>, control characters)', async () => {
  const { app } = await createTestApp(undefined, { content: contentOf([HOSTILE]) });
  const res = await request(app).get('/blog/atom.xml');
  const entry = ((parseFeed(res.text).feed as Node).entry as Node[])[0]!;
  expect(JSON.stringify(entry)).not.toContain('"script"');
  // Atom's title and summary are type="html": what a reader shows is the original text.
  expect((entry.title as Node)['@type']).toBe('html');
  expect(htmlToText(text(entry.title))).toBe(HOSTILE_TITLE);
  expect(htmlToText(text(entry.summary))).toBe('<img src=x onerror=alert(1)> & ]]> "quoted"');
  expect(text((entry.author as Node[])[0]!.name)).toBe('Ana & <Co>');
  expect(entry.category).toEqual([
    { '@label': 'R&D b', '@term': 'r-d' },
    { '@label': '"q" ]]', '@term': 'quotes' },
  ]);
});

test('posts’ tags become categories; a post without tags has none', async () => {
  const tagged = testPost({ slug: 'tagged', date: '2026-02-01', tags: [{ slug: 'datos', name: 'Datos' }] });
  const plain = testPost({ slug: 'plain', date: '2026-01-01' });
  const { app } = await createTestApp(undefined, { content: contentOf([tagged, plain]) });
  const items = ((parseFeed((await request(app).get('/blog/rss.xml')).text).rss as Node).channel as Node).item as Node[];
  expect((items[0]!.category as unknown[]).map(text)).toEqual(['Datos']);
  expect(items[1]!.category).toBeUndefined();
  const entries = (parseFeed((await request(app).get('/blog/atom.xml')).text).feed as Node).entry as Node[];
  expect(entries[0]!.category).toEqual([{ '@label': 'Datos', '@term': 'datos' }]);
  expect(entries[1]!.category).toBeUndefined();
});

test('a post’s cover is an enclosure (RSS) and an enclosure link (Atom), absolute; a post without one has none', async () => {
  const covered = testPost({ slug: 'covered', date: '2026-02-01', cover: testCover('/cms/uploads/cover.jpg') });
  const plain = testPost({ slug: 'plain', date: '2026-01-01' });
  const { app } = await createTestApp(undefined, { content: contentOf([covered, plain]) });
  const items = ((parseFeed((await request(app).get('/blog/rss.xml')).text).rss as Node).channel as Node).item as Node[];
  expect(items[0]!.enclosure).toEqual({ '@url': `${ORIGIN}/cms/uploads/cover.jpg`, '@type': 'image/jpeg', '@length': '0' });
  expect(items[1]!.enclosure).toBeUndefined();
  const entries = (parseFeed((await request(app).get('/blog/atom.xml')).text).feed as Node).entry as Node[];
  expect(entries[0]!.link).toContainEqual(expect.objectContaining({ '@rel': 'enclosure', '@href': `${ORIGIN}/cms/uploads/cover.jpg` }));
  expect(entries[1]!.link).toHaveLength(1);
});

test('an Atom cover of a .jpg is image/jpeg (image/jpg is no registered type) and says no length it does not know', async () => {
  const posts = ['cover.jpg', 'cover.JPEG', 'cover.png', 'cover.webp'].map((file, i) =>
    testPost({ slug: `p${i}`, date: `2026-02-0${i + 1}`, cover: testCover(`/cms/uploads/${file}`) }),
  );
  const { app } = await createTestApp(undefined, { content: contentOf(posts) });
  const entries = (parseFeed((await request(app).get('/blog/atom.xml')).text).feed as Node).entry as Node[];
  const enclosures = entries.map((entry) => (entry.link as Node[]).find((link) => link['@rel'] === 'enclosure')!);
  expect(enclosures.map((link) => link['@type'])).toEqual(['image/webp', 'image/png', 'image/jpeg', 'image/jpeg']);
  for (const link of enclosures) expect(link['@length']).toBeUndefined();
});

test('a cover the site serves itself is an enclosure with its real length in bytes, in RSS and Atom', async () => {
  const app = await testApp();
  const rss = ((parseFeed((await request(app).get('/blog/rss.xml')).text).rss as Node).channel as Node).item as Node[];
  const atom = (parseFeed((await request(app).get('/blog/atom.xml')).text).feed as Node).entry as Node[];
  const covers = [
    ...rss.flatMap((item) =>
      item.enclosure
        ? [{ url: (item.enclosure as Node)['@url'], type: (item.enclosure as Node)['@type'], length: (item.enclosure as Node)['@length'] }]
        : [],
    ),
    ...atom.flatMap((entry) =>
      (entry.link as Node[])
        .filter((link) => link['@rel'] === 'enclosure')
        .map((link) => ({ url: link['@href'], type: link['@type'], length: link['@length'] })),
    ),
  ];
  expect(covers.length).toBeGreaterThan(0);
  for (const cover of covers) {
    const url = new URL(String(cover.url));
    expect(url.origin).toBe(ORIGIN);
    const file = await request(app)
      .get(url.pathname)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status, url.pathname).toBe(200);
    expect(cover.type).toBe(file.headers['content-type']);
    expect(Number(cover.length), url.pathname).toBe((file.body as Buffer).length);
  }
});

test('robots.txt and the sitemap still answer beside the feeds', async () => {
  const app = await testApp();
  const robots = await request(app).get('/robots.txt');
  expect(robots.status).toBe(200);
  expect(robots.text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  const sitemap = await request(app).get('/sitemap.xml');
  expect(sitemap.status).toBe(200);
  const urls = ((parseFeed(sitemap.text).urlset as Node).url as Node[] | Node) ?? [];
  expect(JSON.stringify(urls)).toContain(`${ORIGIN}/blog/como-preparar-el-briefing-de-un-experto`);
  expect(sitemap.text).not.toContain('rss.xml');
});

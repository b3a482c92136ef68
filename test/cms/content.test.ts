import type { ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiContent, type StrapiContentOptions } from '../../server/cms/content.ts';
import { HttpError } from '../../server/http/errors.ts';
import {
  captureLogger,
  fixture,
  LEAST_PRIVILEGE,
  MEDIA,
  paginate,
  sendJson,
  startFakeStrapi,
  type FakeStrapi,
  type FakeStrapiOptions,
  type Received,
} from './fake-strapi.ts';

const SHAPES = [
  ['v4', 'v4-posts', 'v4-legal-pages'],
  ['v5', 'v5-posts', 'v5-legal-pages'],
  ['v5 in the v4 format', 'v5-posts-v4-format', 'v4-legal-pages'],
] as const;

/** What the site asks of every read of posts: the cover, the translations' slugs, the tags' names and slugs. */
const POPULATE = {
  'populate[cover]': 'true',
  'populate[localizations][fields][0]': 'slug',
  'populate[localizations][fields][1]': 'locale',
  'populate[tags][fields][0]': 'name',
  'populate[tags][fields][1]': 'slug',
};

const EMPTY = { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } };

type Answers = { posts?: Partial<Record<string, unknown>>; legal?: Partial<Record<string, unknown>> };

/**
 * A least-privilege Strapi (posts and legal pages public) that answers lists and filtered
 * reads from per-locale answers (missing → empty), paged as Strapi pages them.
 */
function strapiWith(answers: Answers, answer?: (req: Received, res: ServerResponse) => boolean, options: FakeStrapiOptions = {}) {
  return startFakeStrapi(
    (req, res) => {
      if (answer?.(req, res)) return;
      const locale = req.query.get('locale') ?? 'es';
      const source = req.path === '/api/posts' ? answers.posts : req.path === '/api/legal-pages' ? answers.legal : undefined;
      if (!source) return sendJson(res, 404, { data: null, error: { status: 404, name: 'NotFoundError' } });
      const { data } = structuredClone(source[locale] ?? EMPTY) as { data: { slug?: string; attributes?: { slug?: string } }[] };
      const slug = req.query.get('filters[slug][$eq]');
      sendJson(res, 200, paginate(slug ? data.filter((entry) => (entry.attributes?.slug ?? entry.slug) === slug) : data, req.query));
    },
    { access: LEAST_PRIVILEGE, ...options },
  );
}

/** A recorded (flat, Strapi 5) answer without a field of its entries. */
function without(name: string, field: string) {
  const answer = structuredClone(fixture(name)) as { data: Record<string, unknown>[] };
  for (const entry of answer.data) delete entry[field];
  return answer;
}

/** The reads of one language's list (not of a post by slug). */
const listReads = (cms: FakeStrapi, locale: string) =>
  cms.received.filter((r) => r.query.get('locale') === locale && !r.query.has('filters[slug][$eq]'));

function contentFrom(cms: FakeStrapi, options: Partial<StrapiContentOptions> = {}) {
  const log = captureLogger();
  const client = createStrapiClient({ url: cms.url, logger: log.logger });
  return { content: createStrapiContent({ client, logger: log.logger, ...options }), ...log };
}

const uploads = (name: string) => `/cms/uploads/${name}_a1b2c3.jpg`;

/** The recorded cover: Strapi's formats as a srcset, narrowest first and the original last. */
const AUDIT_COVER = {
  src: uploads('auditoria'),
  width: 1600,
  height: 900,
  alt: 'Una mesa con informes',
  srcset: [
    `${uploads('thumbnail_auditoria')} 245w`,
    `${uploads('small_auditoria')} 500w`,
    `${uploads('medium_auditoria')} 750w`,
    `${uploads('large_auditoria')} 1000w`,
    `${uploads('auditoria')} 1600w`,
  ].join(', '),
};

const ES_POSTS = [
  {
    slug: 'auditoria-de-datos',
    title: 'Cómo preparar una auditoría de datos',
    description: 'Los pasos que seguimos antes de revisar los datos de una organización.',
    date: '2026-03-10',
    updated: '2026-03-10',
    author: 'Lucía Martín',
    locale: 'es',
    tags: [
      { slug: 'proteccion-de-datos', name: 'Protección de datos' },
      { slug: 'auditoria', name: 'Auditoría' },
    ],
    cover: AUDIT_COVER,
    translations: { es: 'auditoria-de-datos', en: 'data-audit' },
  },
  {
    slug: 'bienvenida',
    title: 'Bienvenida al blog',
    description: 'Por qué abrimos este blog.',
    date: '2026-01-20',
    updated: '2026-01-20',
    author: 'Equipo',
    locale: 'es',
    tags: [],
    cover: null,
    translations: { es: 'bienvenida' },
  },
];

test.each(SHAPES)(
  'a %s answer gives the posts newest first, dated by date or else publishedAt, with their tags, cover and translations',
  async (_shape, posts) => {
    const cms = await strapiWith({ posts: { es: fixture(posts) } });
    expect(await contentFrom(cms).content.listPosts('es')).toEqual(ES_POSTS);
  },
);

test('the list is asked for with the locale, newest first (ties by slug), cover, translations and tags populated, 100 per page', async () => {
  const cms = await strapiWith({ posts: { es: fixture('v4-posts') } });
  await contentFrom(cms).content.listPosts('es');
  expect(cms.received.map((r) => [r.path, Object.fromEntries(r.query)])).toEqual([
    [
      '/api/posts',
      {
        locale: 'es',
        'sort[0]': 'date:desc',
        'sort[1]': 'slug:asc',
        'pagination[page]': '1',
        'pagination[pageSize]': '100',
        ...POPULATE,
      },
    ],
  ]);
});

test.each<[string, Record<string, null>, Record<string, unknown>]>([
  ['Strapi’s renditions in any order', {}, { srcset: AUDIT_COVER.srcset, width: 1600, height: 900 }],
  ['no renditions (a small image)', { formats: null }, { width: 1600, height: 900 }],
  ['an upload provider that drops the original’s size', { width: null, height: null }, { width: 1000, height: 563 }],
  ['no alternative text', { alternativeText: null }, { alt: '' }],
])('a cover with %s: src is the original, with a real width and height', async (_case, change, expected) => {
  const answer = structuredClone(fixture('v5-posts')) as { data: { cover: Record<string, unknown> | null }[] };
  Object.assign(answer.data[0]!.cover!, change);
  const cms = await strapiWith({ posts: { es: answer } });
  const post = await contentFrom(cms).content.getPost('auditoria-de-datos', 'es');
  expect(post?.cover).toMatchObject({ src: AUDIT_COVER.src, ...expected });
  if (change.formats === null) expect(post?.cover).not.toHaveProperty('srcset');
});

/** `count` posts in the v4 or v5 shape, newest first: post-1 is the newest. */
function manyPosts(count: number, shape: 'v4' | 'v5') {
  const data = Array.from({ length: count }, (_, i) => {
    const fields = { title: `Post ${i + 1}`, slug: `post-${i + 1}`, description: '', content: 'x', author: 'A', locale: 'es' };
    const date = new Date(Date.UTC(2026, 0, 1) - i * 86_400_000).toISOString().slice(0, 10);
    return shape === 'v4' ? { id: i + 1, attributes: { ...fields, date } } : { id: i + 1, documentId: `d${i + 1}`, ...fields, date };
  });
  return { data, meta: {} };
}

test.each(['v4', 'v5'] as const)('a list of 250 posts (%s) is read page by page: posts 101 to 250 are listed too', async (shape) => {
  const cms = await strapiWith({ posts: { es: manyPosts(250, shape) } });
  const list = await contentFrom(cms).content.listPosts('es');
  expect(list).toHaveLength(250);
  expect(list.map((p) => p.slug).slice(99, 102)).toEqual(['post-100', 'post-101', 'post-102']);
  expect(list.at(-1)?.slug).toBe('post-250');
  expect(listReads(cms, 'es').map((r) => r.query.get('pagination[page]'))).toEqual(['1', '2', '3']);
});

test('a CMS with more than 50 pages of posts: the newest 50 pages are listed, and a warning says so', async () => {
  const cms = await strapiWith({ posts: { es: manyPosts(5150, 'v5') } });
  const { content, warnings } = contentFrom(cms);
  const list = await content.listPosts('es');
  expect(list).toHaveLength(5000);
  expect(list.at(-1)?.slug).toBe('post-5000');
  expect(listReads(cms, 'es')).toHaveLength(50);
  expect(warnings().map((w) => w.msg)).toEqual(['CMS posts (es): 52 pages in the CMS; only the first 50 (the newest posts) are listed']);
});

test('an answer without meta.pagination is the whole list: one request', async () => {
  const { data } = fixture('v5-posts') as { data: unknown[] };
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data }), { access: LEAST_PRIVILEGE });
  expect(await contentFrom(cms).content.listPosts('es')).toHaveLength(2);
  expect(listReads(cms, 'es')).toHaveLength(1);
});

test('a post seen on two pages (published while the pages were read) is listed once', async () => {
  const { data } = manyPosts(150, 'v5');
  const cms = await startFakeStrapi(
    (req, res) => {
      const page = paginate(data, req.query);
      // Page 2 starts one entry early, as if a post had been published after page 1 was read.
      if (req.query.get('pagination[page]') === '2') page.data = data.slice(99, 150);
      sendJson(res, 200, page);
    },
    { access: LEAST_PRIVILEGE },
  );
  const list = await contentFrom(cms).content.listPosts('es');
  expect(list.map((p) => p.slug)).toEqual(Array.from({ length: 150 }, (_, i) => `post-${i + 1}`));
});

test.each(SHAPES)('a %s post by slug is filtered by slug and locale and rendered to safe HTML', async (_shape, posts) => {
  const cms = await strapiWith({ posts: { es: fixture(posts) } });
  const post = await contentFrom(cms).content.getPost('auditoria-de-datos', 'es');
  expect(Object.fromEntries(cms.received[0]?.query ?? [])).toEqual({
    'filters[slug][$eq]': 'auditoria-de-datos',
    locale: 'es',
    ...POPULATE,
  });
  expect(post).toMatchObject({ ...ES_POSTS[0] });
  expect(post?.html).toContain('<h2>Antes de empezar</h2>');
  expect(post?.html).toContain('<strong>inventario</strong>');
  expect(post?.html).toContain('<img src="/cms/uploads/equipo_9c8b7a.jpg" alt="Equipo" />');
  expect(post?.html).not.toMatch(/<script/);
});

test('covers and images of an upload provider are shown from a media host; from any other host they are dropped', async () => {
  const entry = (slug: string, cover: string) => ({
    id: slug.length,
    documentId: slug,
    title: slug,
    slug,
    date: '2026-01-01',
    cover: { url: cover, provider: 'aws-s3' },
    content: `![on the bucket](https://acme-media.s3.eu-west-1.amazonaws.com/team.jpg)\n\n![elsewhere](https://evil.example/pixel.png)`,
  });
  const cms = await strapiWith({
    posts: {
      es: {
        data: [
          entry('listed', 'https://acme-media.s3.eu-west-1.amazonaws.com/cover.jpg'),
          entry('unlisted', 'https://evil.example/cover.jpg'),
        ],
        meta: {},
      },
    },
  });
  const { content } = contentFrom(cms, { mediaHosts: ['acme-media.s3.eu-west-1.amazonaws.com'] });
  const covers = Object.fromEntries((await content.listPosts('es')).map((post) => [post.slug, post.cover?.src ?? null]));
  expect(covers).toEqual({ listed: 'https://acme-media.s3.eu-west-1.amazonaws.com/cover.jpg', unlisted: null });
  const post = await content.getPost('listed', 'es');
  expect(post?.cover?.src).toBe('https://acme-media.s3.eu-west-1.amazonaws.com/cover.jpg');
  expect(post?.html).toBe('<p><img src="https://acme-media.s3.eu-west-1.amazonaws.com/team.jpg" alt="on the bucket" /></p>\n<p></p>');
});

test('a post not written in English is not found in English: no Spanish text is offered under /en', async () => {
  const cms = await strapiWith({ posts: { es: fixture('v4-posts') } });
  expect(await contentFrom(cms).content.getPost('bienvenida', 'en')).toBeNull();
  expect(cms.received.map((r) => r.query.get('locale'))).toEqual(['en']);
});

test('an entry in another locale than the one asked (Strapi’s own fallback) is not taken for a post of this locale', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, fixture('v5-posts')), { access: LEAST_PRIVILEGE });
  const { content } = contentFrom(cms);
  expect(await content.listPosts('en')).toEqual([]);
  expect(await content.getPost('bienvenida', 'en')).toBeNull();
});

test.each([
  ['v4', 'v4-posts', 'v4-posts-en'],
  ['v5 in the v4 format', 'v5-posts-v4-format', 'v4-posts-en'],
])('%s: a post’s translations come from its localizations, each with its own slug', async (_shape, es, en) => {
  const cms = await strapiWith({ posts: { es: fixture(es), en: fixture(en) } });
  const { content } = contentFrom(cms);
  expect((await content.getPost('auditoria-de-datos', 'es'))?.translations).toEqual({ es: 'auditoria-de-datos', en: 'data-audit' });
  const english = await content.getPost('data-audit', 'en');
  expect(english).toMatchObject({ locale: 'en', title: 'How to prepare a data audit', updated: '2026-03-11' });
  expect(english?.translations).toEqual({ en: 'data-audit', es: 'auditoria-de-datos' });
  expect(english?.tags).toEqual([
    { slug: 'data-protection', name: 'Data protection' },
    { slug: 'audit', name: 'Audit' },
  ]);
  expect((await content.listPosts('en')).map((p) => [p.slug, p.translations])).toEqual([
    ['data-audit', { en: 'data-audit', es: 'auditoria-de-datos' }],
  ]);
});

test.each([
  ['Strapi 4', 'v4-posts', 'v4-posts-en'],
  ['Strapi 5 with localizations in its answers', 'v5-posts', 'v5-posts-en'],
])('%s: translations need no other language’s list, one read per post', async (_case, es, en) => {
  const cms = await strapiWith({ posts: { es: fixture(es), en: fixture(en) } });
  const { content } = contentFrom(cms);
  expect((await content.getPost('auditoria-de-datos', 'es'))?.translations).toEqual({ es: 'auditoria-de-datos', en: 'data-audit' });
  expect((await content.listPosts('es')).map((p) => p.slug)).toEqual(['auditoria-de-datos', 'bienvenida']);
  expect(cms.received.map((r) => r.query.get('locale'))).toEqual(['es', 'es']);
});

test('Strapi 5: translations are linked by documentId across the languages’ lists, each with its own slug', async () => {
  const cms = await strapiWith({ posts: { es: without('v5-posts', 'localizations'), en: without('v5-posts-en', 'localizations') } });
  const { content } = contentFrom(cms);
  expect((await content.getPost('auditoria-de-datos', 'es'))?.translations).toEqual({ es: 'auditoria-de-datos', en: 'data-audit' });
  expect((await content.getPost('data-audit', 'en'))?.translations).toEqual({ es: 'auditoria-de-datos', en: 'data-audit' });
  expect((await content.listPosts('es')).map((p) => [p.slug, p.translations])).toEqual([
    ['auditoria-de-datos', { es: 'auditoria-de-datos', en: 'data-audit' }],
    ['bienvenida', { es: 'bienvenida' }],
  ]);
  // The other language's list is read once and cached like any list.
  expect(cms.received.filter((r) => r.query.get('locale') === 'en' && !r.query.has('filters[slug][$eq]'))).toHaveLength(1);
});

test('when the other language’s list cannot be read, the post still renders, without the translation it cannot see', async () => {
  const cms = await strapiWith({ posts: { es: without('v5-posts', 'localizations') } }, (req, res) => {
    const down = req.query.get('locale') === 'en';
    if (down) sendJson(res, 502, { data: null, error: { status: 502, name: 'BadGateway' } });
    return down;
  });
  const { content, warnings } = contentFrom(cms);
  const post = await content.getPost('auditoria-de-datos', 'es');
  expect(post).toMatchObject({ slug: 'auditoria-de-datos', translations: { es: 'auditoria-de-datos' } });
  expect((await content.listPosts('es')).map((p) => p.slug)).toEqual(['auditoria-de-datos', 'bienvenida']);
  expect(warnings().map((w) => w.msg)).toContainEqual(expect.stringMatching(/posts:en: .*answered 502/));
});

const WITHOUT_TAGS = { model: { post: { cover: MEDIA, localizations: 'post' } } };

test('a post type without tags: the CMS refuses populate[tags] (400), posts are read again without, a warning is logged once, later reads go without', async () => {
  const cms = await strapiWith({ posts: { es: without('v5-posts', 'tags') } }, undefined, WITHOUT_TAGS);
  const { content, warnings } = contentFrom(cms);
  const list = await content.listPosts('es');
  expect(list.map((p) => [p.slug, p.tags])).toEqual([
    ['auditoria-de-datos', []],
    ['bienvenida', []],
  ]);
  expect((await content.getPost('bienvenida', 'es'))?.title).toBe('Bienvenida al blog');
  // The list (refused, then again without tags), then the post.
  expect(cms.received.map((r) => r.query.has('populate[tags][fields][0]'))).toEqual([true, false, false]);
  expect(warnings().filter((w) => /tags/.test(w.msg))).toHaveLength(1);
});

test('a post type without tags, read by many requests at once: every read succeeds and the warning is logged once', async () => {
  const cms = await strapiWith({ posts: { es: without('v5-posts', 'tags'), en: without('v5-posts-en', 'tags') } }, undefined, WITHOUT_TAGS);
  const { content, warnings } = contentFrom(cms);
  const [es, en, post] = await Promise.all([content.listPosts('es'), content.listPosts('en'), content.getPost('data-audit', 'en')]);
  expect([es.length, en.length, post?.slug]).toEqual([2, 1, 'data-audit']);
  expect(warnings().map((w) => w.msg)).toEqual([expect.stringMatching(/refused to populate `tags`/)]);
});

test('a 400 that is not about tags (the read fails without tags too) does not turn the tags off', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 400, { data: null, error: { status: 400, name: 'ValidationError' } }), {
    access: LEAST_PRIVILEGE,
  });
  const { content, warnings } = contentFrom(cms);
  await expect(content.listPosts('es')).rejects.toMatchObject({ status: 503 });
  await expect(content.getPost('bienvenida', 'es')).rejects.toMatchObject({ status: 503 });
  expect(cms.received.filter((r) => r.query.has('filters[slug][$eq]'))[0]?.query.has('populate[tags][fields][0]')).toBe(true);
  expect(warnings().some((w) => /refused to populate `tags`/.test(w.msg))).toBe(false);
});

test('without tag.find for the Public role, Strapi leaves the tags out: posts are listed without tags', async () => {
  const cms = await startFakeStrapi(
    (req, res) => sendJson(res, 200, paginate((fixture('v4-posts') as { data: unknown[] }).data, req.query)),
    {
      access: { ...LEAST_PRIVILEGE, public: ['post.find', 'post.findOne', 'legal-page.find', 'legal-page.findOne'] },
    },
  );
  const list = await contentFrom(cms).content.listPosts('es');
  expect(list.map((p) => [p.slug, p.tags])).toEqual([
    ['auditoria-de-datos', []],
    ['bienvenida', []],
  ]);
  expect(list[0]?.translations).toEqual({ es: 'auditoria-de-datos', en: 'data-audit' });
});

test('a post written in Strapi 5 blocks is rendered like Markdown', async () => {
  const cms = await strapiWith({ posts: { en: fixture('v5-post-blocks-en') } });
  const post = await contentFrom(cms).content.getPost('auditoria-de-datos', 'en');
  expect(post).toMatchObject({ title: 'How to prepare a data audit', locale: 'en', date: '2026-03-10' });
  expect(post?.html).toContain('<h2>Before you start</h2>');
  expect(post?.html).toContain('<strong>inventory</strong>');
  expect(post?.html).toContain('<a href="https://example.com/guide" rel="noopener noreferrer" target="_blank">our guide</a>');
  expect(post?.html).toContain('<img src="/cms/uploads/team_9c8b7a.jpg" alt="The team" />');
  expect(post?.html).toContain('&lt;script&gt;');
  expect(post?.html).not.toMatch(/<script/);
});

test('the English list holds only the posts written in English', async () => {
  const cms = await strapiWith({ posts: { es: fixture('v5-posts'), en: fixture('v5-post-blocks-en') } });
  const list = await contentFrom(cms).content.listPosts('en');
  expect(list.map((p) => [p.slug, p.locale, p.title, p.translations])).toEqual([
    ['auditoria-de-datos', 'en', 'How to prepare a data audit', { en: 'auditoria-de-datos', es: 'auditoria-de-datos' }],
  ]);
});

test('an unknown slug is null (the page shows 404); a slug that is not a slug is null without a request', async () => {
  const cms = await strapiWith({ posts: { es: fixture('v4-posts') } });
  const { content } = contentFrom(cms);
  expect(await content.getPost('no-such-post', 'es')).toBeNull();
  expect(cms.received).toHaveLength(1);
  for (const slug of ['../x', 'A', 'a b', '', 'x'.repeat(101)]) expect(await content.getPost(slug, 'es')).toBeNull();
  expect(cms.received).toHaveLength(1);
});

test.each(SHAPES)('a %s legal page is filtered by page and locale; its updatedAt is the updated date', async (_shape, _posts, legal) => {
  const cms = await strapiWith({ legal: { es: fixture(legal) } });
  const document = await contentFrom(cms).content.getLegal('privacy', 'es');
  expect(Object.fromEntries(cms.received[0]?.query ?? [])).toEqual({ 'filters[page][$eq]': 'privacy', locale: 'es' });
  expect(document).toEqual({
    page: 'privacy',
    title: 'Política de privacidad',
    description: 'Cómo tratamos tus datos personales.',
    updated: '2026-02-14',
    locale: 'es',
    html: '<h2>Responsable</h2>\n<p>La empresa trata tus datos para responder a tus consultas.</p>\n<p><a href="mailto:privacidad@example.com">Contacto</a></p>',
  });
});

test('a legal page missing in English falls back to the Spanish one; a page missing everywhere is null', async () => {
  const cms = await strapiWith({ legal: { es: fixture('v5-legal-pages') } });
  const { content } = contentFrom(cms);
  expect((await content.getLegal('privacy', 'en'))?.locale).toBe('es');
  expect(await content.getLegal('cookies', 'en')).toBeNull();
});

test('invalid entries are skipped with a warning each; the valid ones are shown', async () => {
  const valid = { id: 1, documentId: 'a', title: 'Fine', slug: 'fine', description: 'd', content: 'x', author: 'A', date: '2026-01-01' };
  const answer = {
    data: [
      valid,
      { ...valid, id: 2, title: '' },
      { ...valid, id: 3, slug: 'Not A Slug' },
      { ...valid, id: 4, date: null, publishedAt: null },
      { ...valid, id: 5, content: 42 },
    ],
    meta: {},
  };
  const cms = await strapiWith({ posts: { es: answer } });
  const { content, warnings } = contentFrom(cms);
  expect((await content.listPosts('es')).map((p) => p.slug)).toEqual(['fine']);
  expect(warnings().map((w) => w.entryId)).toEqual([2, 3, 4, 5]);
  expect(warnings()[0]?.msg).toMatch(/post 2 skipped: title/);
});

test('results are cached: the second call makes no request, after the TTL it does', async () => {
  let clock = 5_000_000;
  const cms = await strapiWith({ posts: { es: fixture('v5-posts') } });
  const { content } = contentFrom(cms, { now: () => clock, ttlMs: 60_000 });
  await content.getPost('bienvenida', 'es');
  await content.listPosts('es');
  clock += 59_000;
  await content.getPost('bienvenida', 'es');
  await content.listPosts('es');
  expect(cms.received).toHaveLength(2);
  clock += 2000;
  await content.getPost('bienvenida', 'es');
  expect(cms.received).toHaveLength(3);
});

test('when the CMS fails, the last good copy is served (stale) and the CMS is left alone for a while', async () => {
  let clock = 5_000_000;
  let down = false;
  const cms = await strapiWith({ posts: { es: fixture('v4-posts') } }, (_req, res) => {
    if (down) sendJson(res, 502, {});
    return down;
  });
  const { content, warnings } = contentFrom(cms, { now: () => clock, ttlMs: 60_000, failureTtlMs: 10_000 });
  const fresh = await content.listPosts('es');
  down = true;
  clock += 61_000;
  expect(await content.listPosts('es')).toEqual(fresh);
  expect(warnings()[0]?.msg).toMatch(/serving the last good copy/);
  clock += 5000;
  expect(await content.listPosts('es')).toEqual(fresh);
  expect(cms.received).toHaveLength(2);
  clock += 6000;
  await content.listPosts('es');
  expect(cms.received).toHaveLength(3);
});

test('when the CMS fails and nothing is cached, the page fails with a 503 (and fails fast for a while)', async () => {
  let clock = 5_000_000;
  const cms = await startFakeStrapi((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('not json'));
  const { content } = contentFrom(cms, { now: () => clock, failureTtlMs: 10_000 });
  const failure = content.getLegal('privacy', 'es');
  await expect(failure).rejects.toBeInstanceOf(HttpError);
  await expect(failure).rejects.toMatchObject({ status: 503 });
  await expect(content.getLegal('privacy', 'es')).rejects.toMatchObject({ status: 503 });
  expect(cms.received).toHaveLength(1);
  clock += 11_000;
  await expect(content.getLegal('privacy', 'es')).rejects.toMatchObject({ status: 503 });
  expect(cms.received).toHaveLength(2);
});

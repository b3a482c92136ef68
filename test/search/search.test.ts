// The site search (server/search/) on the run's engine: what it finds (titles, summaries, tags,
// bodies, every kind), in what order, with which fragment, whatever is typed; and how the index
// keeps in step with the content (only what changed is written; a CMS change reindexes).
import { expect, test } from 'vitest';
import type { CaseStudy } from '../../shared/page-data.ts';
import { createLogger } from '../../server/base/logger.ts';
import { createChangeFeed } from '../../server/db/changes.ts';
import type { Db } from '../../server/db/index.ts';
import { createIndexer } from '../../server/search/indexer.ts';
import { searchModule } from '../../server/search/module.ts';
import { postSource } from '../../server/search/sources.ts';
import { postgresSearch } from '../../server/search/engine-postgres.ts';
import { sqliteSearch } from '../../server/search/engine-sqlite.ts';
import type { SearchEngine } from '../../server/search/engine.ts';
import { TEST_ENGINE, reopenableTestDatabase, testDatabase } from '../helpers/app.ts';
import { fakeContent, type FakePost } from '../helpers/search-content.ts';

const logger = createLogger('silent');

async function searchOf(db: Db, posts: FakePost[], studies: CaseStudy[] = []) {
  const { content } = fakeContent(posts, studies);
  const search = searchModule({ db, content, logger, fromCms: false });
  await search.idle();
  return search;
}

const slugsOf = (results: { hits: { slug: string }[] } | null) => results?.hits.map((hit) => hit.slug);

const POSTS: FakePost[] = [
  {
    slug: 'datos',
    locale: 'es',
    title: 'Estrategia de datos',
    description: 'Los primeros noventa días.',
    tags: ['Datos'],
    html: '<p>Un cuadro de mando semanal de ventas.</p>',
    date: '2026-03-01',
  },
  {
    slug: 'accesible',
    locale: 'es',
    title: 'Accesibilidad web',
    description: 'Lo que pide la norma.',
    tags: ['Accesibilidad', 'Cumplimiento normativo'],
    html: '<p>La <strong>gestión</strong> de incidencias y el contraste.</p>',
    date: '2026-02-01',
  },
  {
    slug: 'data',
    locale: 'en',
    title: 'Data strategy',
    description: 'The first ninety days.',
    tags: ['Data'],
    html: '<p>A weekly sales <em>dashboard</em> is enough.</p>',
    date: '2026-03-01',
  },
  {
    slug: 'dashboards',
    locale: 'en',
    title: 'Dashboards that get used',
    description: 'Measure use.',
    tags: ['Reporting'],
    html: '<p>Few charts.</p>',
    date: '2026-01-01',
  },
];

test(`a word only in a post's body finds that post, in Spanish and in English (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  expect(slugsOf(await search.search({ q: 'ventas', locale: 'es', kinds: ['post'], page: 1 }))).toEqual(['datos']);
  expect(slugsOf(await search.search({ q: 'sales', locale: 'en', kinds: ['post'], page: 1 }))).toEqual(['data']);
  // A language's search finds its own language's posts only.
  expect(slugsOf(await search.search({ q: 'sales', locale: 'es', kinds: ['post'], page: 1 }))).toEqual([]);
});

test(`a tag's name finds its posts (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  expect(slugsOf(await search.search({ q: 'normativo', locale: 'es', kinds: ['post'], page: 1 }))).toEqual(['accesible']);
  expect(slugsOf(await search.search({ q: 'reporting', locale: 'en', kinds: ['post'], page: 1 }))).toEqual(['dashboards']);
});

test(`results are ranked: a match in the title comes before a match in the body, however new the other post (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  expect(slugsOf(await search.search({ q: 'dashboard', locale: 'en', kinds: ['post'], page: 1 }))).toEqual(['dashboards', 'data']);
});

test.each([
  ['accesibilidad', 'accesible'],
  ['ACCESIBILIDAD', 'accesible'],
  ['gestion', 'accesible'],
  ['GESTIÓN', 'accesible'],
  ['Estrategía', 'datos'],
])(`accents and case do not matter: “%s” finds its post (${TEST_ENGINE})`, async (q, slug) => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  expect(slugsOf(await search.search({ q, locale: 'es', kinds: ['post'], page: 1 }))).toEqual([slug]);
});

test(`English words are stemmed: “dashboards” finds a post that says “dashboard” (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  expect(slugsOf(await search.search({ q: 'dashboards', locale: 'en', kinds: ['post'], page: 1 }))).toEqual(['dashboards', 'data']);
});

test(`each result carries the text around the words found, the words marked, markup only as text (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const html = '<p>Never run &lt;script&gt;alert(1)&lt;/script&gt; pasted from a dashboard.</p>';
  const search = await searchOf(db, [{ slug: 'x', locale: 'en', title: 'Safety', html }]);
  const [hit] = (await search.search({ q: 'dashboard', locale: 'en', kinds: ['post'], page: 1 }))!.hits;
  const marked = hit!.fragment.filter((part) => part.marked).map((part) => part.text.toLowerCase());
  expect(marked).toEqual(['dashboard']);
  // Text, never markup: a part is a string (PostgreSQL's headline leaves out what looks like a tag).
  expect(hit!.fragment.every((part) => typeof part.text === 'string')).toBe(true);
  expect(hit!.fragment.map((part) => part.text).join('')).toContain('alert(1)');
});

test.each([
  '"',
  '""dashboard',
  'dash*',
  'NEAR(data strategy)',
  '-data',
  'data OR',
  'title:data',
  '(',
  ')',
  "'",
  '\\',
  'AND',
  '^data',
  'data + -',
  '!!',
  '\u0000data',
  '*',
])(`the engine's syntax in a search never throws: %j (${TEST_ENGINE})`, async (q) => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  const results = await search.search({ q, locale: 'en', kinds: ['post'], page: 1 });
  expect(results).not.toBeNull();
  expect(results!.total).toBe(results!.hits.length);
});

test(`a search with no word to match has no results, and no page past the first (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const search = await searchOf(db, POSTS);
  expect(await search.search({ q: '  ', locale: 'es', kinds: ['post'], page: 1 })).toEqual({ hits: [], total: 0, page: 1, pageCount: 1 });
  expect(await search.search({ q: '', locale: 'es', kinds: ['post'], page: 2 })).toBeNull();
});

test(`results come a page at a time; past the last page is none (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const posts = Array.from({ length: 25 }, (_, i): FakePost => ({
    slug: `p-${i}`,
    locale: 'en',
    title: `Post ${i}`,
    html: '<p>About budgets.</p>',
    date: `2026-01-${String(i + 1).padStart(2, '0')}`,
  }));
  const search = await searchOf(db, posts);
  const second = await search.search({ q: 'budgets', locale: 'en', kinds: ['post'], page: 2 });
  expect(second).toMatchObject({ total: 25, page: 2, pageCount: 3 });
  // Equal ranks: newest first.
  expect(slugsOf(second)).toEqual(Array.from({ length: 10 }, (_, i) => `p-${14 - i}`));
  expect(await search.search({ q: 'budgets', locale: 'en', kinds: ['post'], page: 4 })).toBeNull();
});

test(`case studies are searched with their kind named, and a kind not asked for is not found (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const study: CaseStudy = {
    slug: 'forecast',
    locale: 'en',
    title: 'Demand forecast',
    client: 'Nortia',
    sector: 'Retail',
    practice: 'data',
    result: null,
    quote: 'It works.',
    quoteBy: 'Ana, CEO',
    html: '<p>A dashboard of stock.</p>',
    sample: true,
    challenge: 'Routes planned on last week.',
    figures: [{ value: '40', label: 'routes planned' }],
  };
  const search = await searchOf(db, POSTS, [study]);
  const all = await search.search({ q: 'stock', locale: 'en', kinds: ['post', 'case-study'], page: 1 });
  expect(all?.hits.map((hit) => [hit.kind, hit.slug, hit.path])).toEqual([['case-study', 'forecast', '/en/case-studies/forecast']]);
  // Its challenge and its figures are searched too.
  expect(slugsOf(await search.search({ q: 'routes', locale: 'en', kinds: ['case-study'], page: 1 }))).toEqual(['forecast']);
  expect(slugsOf(await search.search({ q: 'stock', locale: 'en', kinds: ['post'], page: 1 }))).toEqual([]);
});

/** The engine of the run, counting its writes. */
function countingEngine(db: Db) {
  const engine = db.engine === 'postgres' ? postgresSearch(db) : sqliteSearch(db);
  const writes: string[] = [];
  const counted: SearchEngine = { ...engine, write: (doc, indexed) => (writes.push(doc.slug), engine.write(doc, indexed)) };
  return { engine: counted, writes };
}

test(`reindexing writes only the documents that changed, and removes the ones gone (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const posts = structuredClone(POSTS);
  const { content } = fakeContent(posts);
  const { engine, writes } = countingEngine(db);
  const indexer = createIndexer({ engine, sources: [postSource(content, { trustUpdated: false })], logger });
  await indexer.reindex();
  expect(writes).toHaveLength(4);
  writes.length = 0;
  await indexer.reindex();
  expect(writes).toEqual([]);
  posts[0]!.html = '<p>Un cuadro de mando mensual.</p>';
  posts.pop();
  await indexer.reindex();
  expect(writes).toEqual(['datos']);
  expect(await engine.query({ locale: 'en', terms: ['used'], kinds: ['post'], limit: 10, offset: 0 })).toMatchObject({ total: 0 });
});

test(`a restart with unchanged content writes nothing (${TEST_ENGINE})`, async () => {
  const open = await reopenableTestDatabase();
  const first = await open();
  await searchOf(first, POSTS);
  await first.close();
  const again = await open();
  const { engine, writes } = countingEngine(again);
  await createIndexer({ engine, sources: [postSource(fakeContent(POSTS).content, { trustUpdated: false })], logger }).reindex();
  expect(writes).toEqual([]);
  await again.close();
});

test(`a CMS post whose updatedAt is as indexed is not read again (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const posts = POSTS.map((post) => ({ ...post, updated: '2026-03-02T10:00:00.000Z' }));
  const { content, reads } = fakeContent(posts);
  const indexer = createIndexer({ engine: sqliteOrPg(db), sources: [postSource(content, { trustUpdated: true })], logger });
  await indexer.reindex();
  reads.length = 0;
  posts[1]!.updated = '2026-03-03T10:00:00.000Z';
  await indexer.reindex();
  expect(reads).toEqual(['es:accesible']);
});

function sqliteOrPg(db: Db): SearchEngine {
  return db.engine === 'postgres' ? postgresSearch(db) : sqliteSearch(db);
}

test(`a post changed in the CMS is found by its new words once the change is told (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const posts = structuredClone(POSTS);
  const { content } = fakeContent(posts);
  const search = searchModule({ db, content, logger, fromCms: true });
  const changes = await createChangeFeed(db, { logger });
  try {
    search.subscribe(changes);
    await search.idle();
    expect(slugsOf(await search.search({ q: 'presupuesto', locale: 'es', kinds: ['post'], page: 1 }))).toEqual([]);
    posts[0]!.html = '<p>Un presupuesto anual.</p>';
    await changes.publish('cms:post:/datos');
    await expect
      .poll(async () => slugsOf(await search.search({ q: 'presupuesto', locale: 'es', kinds: ['post'], page: 1 })))
      .toEqual(['datos']);
  } finally {
    await changes.close();
  }
});

import request from 'supertest';
import type { BlogPosting, BreadcrumbList, Organization, WebSite, WithContext } from 'schema-dts';
import { expect, expectTypeOf, test } from 'vitest';
import { jsonLdOf } from '../../server/seo/json-ld.ts';
import { loadBrand } from '../../server/brand/brand.ts';
import { LOCALES } from '../../shared/locales.ts';
import type { RouteBase } from '../../shared/routes.ts';
import { createTestApp, ORIGIN, testApp } from '../helpers/app.ts';
import { samplePages } from '../helpers/sample-urls.ts';
import { canonicalOf, contentOf, jsonLdScripts, testCover, testPost } from './helpers.ts';

const POST = 'how-to-brief-an-expert';
/** The same post's Spanish slug (a translation has its own). */
const ES_POST = 'como-preparar-el-briefing-de-un-experto';

// What Google's rich-results guidelines ask of each type (developers.google.com/search/docs/
// appearance/structured-data: "Organization", "Article", "Breadcrumb", "Site names"), as this
// site applies them: every property listed must be present and non-empty.
const REQUIRED: Record<string, readonly string[]> = {
  // Organization: name and url identify it; a logo (≥ 112×112, crawlable) for the knowledge panel.
  Organization: ['name', 'url', 'logo'],
  // Site names: WebSite with name and url (the home page of the domain).
  WebSite: ['name', 'url'],
  // Article / BlogPosting: headline, image, dates, author (a Person with a name), publisher; plus
  // the page it is the main entity of and its language.
  BlogPosting: ['headline', 'image', 'datePublished', 'dateModified', 'author', 'publisher', 'mainEntityOfPage', 'inLanguage'],
  // Breadcrumb: itemListElement of ListItems, each with position, name and item.
  BreadcrumbList: ['itemListElement'],
};
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function isAbsoluteUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value);
}

/** Checks one JSON-LD object against the rules above and the type's own constraints. */
function checkRichResultRules(data: Record<string, unknown>): void {
  const type = data['@type'] as string;
  expect(data['@context'], `${type}: @context`).toBe('https://schema.org');
  expect(Object.keys(REQUIRED), `${type} is a type the rules know`).toContain(type);
  for (const property of REQUIRED[type]!) {
    const value = data[property];
    expect(value === undefined || value === '' || (Array.isArray(value) && value.length === 0), `${type}.${property} is present`).toBe(
      false,
    );
  }
  if (type === 'Organization') {
    expect(isAbsoluteUrl(data.url)).toBe(true);
    expect(isAbsoluteUrl((data.logo as { url: string }).url)).toBe(true);
  }
  if (type === 'WebSite') expect(isAbsoluteUrl(data.url)).toBe(true);
  if (type === 'BlogPosting') {
    expect(data.datePublished).toMatch(ISO_8601);
    expect(data.dateModified).toMatch(ISO_8601);
    expect(data.author).toMatchObject({ '@type': 'Person', name: expect.any(String) });
    expect((data.image as unknown[]).every(isAbsoluteUrl), 'images are absolute URLs').toBe(true);
    expect(data.publisher).toMatchObject({ '@type': 'Organization', name: expect.any(String) });
    expect(isAbsoluteUrl((data.publisher as { logo: { url: string } }).logo.url)).toBe(true);
    expect(data.mainEntityOfPage).toMatchObject({ '@type': 'WebPage', '@id': expect.any(String) });
  }
  if (type === 'BreadcrumbList') {
    const items = data.itemListElement as Record<string, unknown>[];
    expect(items.length).toBeGreaterThanOrEqual(2);
    items.forEach((item, index) => {
      expect(item['@type']).toBe('ListItem');
      expect(item.position, 'positions count from 1').toBe(index + 1);
      expect(typeof item.name === 'string' && item.name.length > 0).toBe(true);
      expect(isAbsoluteUrl(item.item), 'item is an absolute URL').toBe(true);
    });
  }
}

test('the JSON-LD builder is typed with schema.org’s types (schema-dts)', () => {
  expectTypeOf(jsonLdOf).returns.items.toEqualTypeOf<WithContext<Organization | WebSite | BlogPosting | BreadcrumbList>>();
});

test.each(['/', '/en'])('the home page %s describes the Organization and the WebSite, by the rich-results rules', async (path) => {
  const res = await request(await testApp()).get(path);
  const scripts = jsonLdScripts(res.text);
  expect(scripts.map((s) => s.data['@type'])).toEqual(['Organization', 'WebSite']);
  for (const { data } of scripts) checkRichResultRules(data);
  const [organization, site] = scripts.map((s) => s.data);
  expect(organization).toMatchObject({ name: 'the product', url: `${ORIGIN}/`, logo: { url: `${ORIGIN}/logo-512.png` } });
  // The legal notice's facts (brand.json's legal, docs/decisions/035): the name follows SITE_NAME.
  expect(organization).toMatchObject({ legalName: 'the product S.L.', taxID: loadBrand().legal.taxId });
  expect(site).toMatchObject({
    name: 'the product',
    url: `${ORIGIN}/`,
    // Every language of the locale table, by its BCP 47 tag.
    inLanguage: LOCALES.map((locale) => locale.iso),
    publisher: { '@id': organization!['@id'] },
  });
});

test.each([
  [`/blog/${ES_POST}`, 'es', 'es-ES', 'Cómo preparar el briefing de un experto independiente'],
  [`/en/blog/${POST}`, 'en', 'en-US', 'How to brief an independent expert'],
])(
  'a post %s is a BlogPosting with a BreadcrumbList home → blog → post, by the rich-results rules',
  async (path, locale, language, headline) => {
    const res = await request(await testApp()).get(path);
    const scripts = jsonLdScripts(res.text);
    expect(scripts.map((s) => s.data['@type'])).toEqual(['BlogPosting', 'BreadcrumbList']);
    for (const { data } of scripts) checkRichResultRules(data);
    const [posting, trail] = scripts.map((s) => s.data);
    const canonical = canonicalOf(res.text);
    expect(posting).toMatchObject({
      headline,
      datePublished: '2026-06-18',
      dateModified: '2026-06-18',
      author: { '@type': 'Person', name: 'Marta Ruiz' },
      image: [expect.stringMatching(new RegExp(`^${ORIGIN}/assets/content/[\\w-]+\\.(jpg|png)$`))],
      inLanguage: language,
      mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
      publisher: { name: 'the product' },
    });
    const prefix = locale === 'es' ? '' : '/en';
    expect((trail!.itemListElement as { item: string; name: string }[]).map((i) => [i.name, i.item])).toEqual([
      ['the product', `${ORIGIN}${prefix || '/'}`],
      ['Blog', `${ORIGIN}${prefix}/blog`],
      [headline, canonical],
    ]);
  },
);

test('a post’s BlogPosting carries its cover, its last change and its tags when the source has them', async () => {
  const post = testPost({
    slug: 'rich',
    cover: testCover('/cms/uploads/rich.jpg'),
    updated: '2026-02-01',
    tags: [{ slug: 'datos', name: 'Datos' }],
  });
  const { app } = await createTestApp(undefined, { content: contentOf([post]) });
  const [posting] = jsonLdScripts((await request(app).get('/blog/rich')).text).map((s) => s.data);
  expect(posting).toMatchObject({ image: [`${ORIGIN}/cms/uploads/rich.jpg`], dateModified: '2026-02-01', keywords: ['Datos'] });
});

test('every JSON-LD script carries the request’s CSP nonce', async () => {
  const res = await request(await testApp()).get(`/blog/${ES_POST}`);
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
  expect(nonce).toBeTruthy();
  const scripts = jsonLdScripts(res.text);
  expect(scripts).toHaveLength(2);
  for (const script of scripts) expect(script.nonce).toBe(nonce);
});

test('a hostile post title cannot close the JSON-LD script: < > & are escaped, the data stays the same', async () => {
  const title = '</script><script>alert(1)</script> <!-- & \u2028';
  const { app } = await createTestApp(undefined, { content: contentOf([testPost({ slug: 'hostile', title })]) });
  const res = await request(app).get('/blog/hostile');
  expect(res.text).not.toContain('<script>alert(1)');
  const scripts = jsonLdScripts(res.text);
  for (const { raw } of scripts) expect(raw).not.toMatch(/[<>]/);
  expect(scripts[0]!.data.headline).toBe(title);
});

/** The pages that carry JSON-LD: the home (Organization, WebSite) and a post (BlogPosting). */
const WITH_JSON_LD: readonly RouteBase[] = ['index', 'blog-slug'];
// Every other page a signed-out visitor opens, from the route table (a new route joins by itself),
// and an address no route matches.
const WITHOUT_JSON_LD = [
  ...samplePages()
    .filter((page) => page.role === undefined && !WITH_JSON_LD.includes(page.base))
    .map((page) => page.url),
  '/en/does-not-exist',
];

test.each(WITHOUT_JSON_LD)('%s has no JSON-LD (home and posts only)', async (path) => {
  const res = await request(await testApp()).get(path);
  expect(jsonLdScripts(res.text)).toEqual([]);
});

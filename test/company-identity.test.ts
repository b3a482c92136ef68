// The company's identity in one place (docs/decisions/036-company-identity.md): every text that
// names the company — the legal pages, the posts, the structured data — takes its name, registered
// office, tax ID and registry entry from brand/brand.json and SITE_NAME, through the content's
// placeholders; content/ and locales/ write none of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { loadBrand, type Brand } from '../server/brand/brand.ts';
import { companyOf } from '../server/brand/company.ts';
import { loadConfig } from '../server/base/config.ts';
import { PATHS } from '../server/base/paths.ts';
import { PLACEHOLDER_NAMES } from '../server/content/placeholders.ts';
import { FEED_FORMATS, feedPath, type FeedFormat } from '../server/seo/feeds.ts';
import { LOCALE_CODES } from '../shared/locales.ts';
import { BASE_ROUTES, localePath } from '../shared/routes.ts';
import { createTestApp } from './helpers/app.ts';
import { brandFolder, inEveryLocale } from './brand/helpers.ts';

/** Another company: its own address, tax ID and registry entry; its legal name left to follow SITE_NAME. */
function acmeBrand(legal: Record<string, unknown> = {}): Brand {
  return loadBrand(
    brandFolder((json) => ({
      ...json,
      contact: {
        email: 'info@acme-consulting.example',
        phone: '+44 20 7946 0000',
        address: { street: '1 Example Street', postalCode: 'EC1A 1BB', city: 'London', country: 'GB' },
      },
      legal: {
        taxId: 'GB-123456789',
        registry: inEveryLocale({
          es: 'inscrita en Companies House con el número 01234567',
          en: 'registered at Companies House, number 01234567',
        }),
        ...legal,
      },
    })),
  );
}

/** What the shipped files say about the company (the default SITE_NAME, brand/brand.json). */
const DEFAULT_SITE_NAME = loadConfig({}).SITE_NAME;
const shipped = companyOf(loadBrand(), DEFAULT_SITE_NAME);

describe('with SITE_NAME=Acme and its own brand.json, the site names Acme only', async () => {
  const { app, content } = await createTestApp({ SITE_NAME: 'Acme' }, { brand: acmeBrand() });

  /** Every public page of both languages (each post and tag of each), and the feeds. */
  const urls: string[] = [];
  for (const locale of LOCALE_CODES) {
    const posts = await content.listPosts(locale);
    for (const route of BASE_ROUTES.filter((r) => r.public)) {
      if (route.path.includes(':slug')) urls.push(...posts.map((post) => localePath(route.base, locale, { slug: post.slug })));
      else if (route.path.includes(':tag')) {
        const tags = new Set(posts.flatMap((post) => post.tags.map((tag) => tag.slug)));
        urls.push(...[...tags].map((tag) => localePath(route.base, locale, { tag })));
      } else urls.push(localePath(route.base, locale));
    }
    urls.push(...(Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => feedPath(format, locale)));
  }

  test('the pages checked include every legal page and post of both languages', () => {
    expect(urls).toEqual(expect.arrayContaining(['/legal', '/en/legal', '/privacy', '/en/privacy', '/en/blog/how-to-brief-an-expert']));
    expect(urls.length).toBeGreaterThan(30);
  });

  test.each(urls)('%s names neither the default company nor its address, and leaves no placeholder', async (url) => {
    const res = await request(app).get(url);
    expect(res.status).toBeLessThan(500);
    for (const text of [
      shipped.legalName,
      'Calle de Ejemplo',
      ...Object.values(shipped.registeredOffice),
      loadBrand().contact.address.street,
      ...Object.values(shipped.registry),
      `**${DEFAULT_SITE_NAME}**`,
      '{{company.',
      '%7B%7Bcompany',
    ]) {
      expect(res.text, url).not.toContain(text);
    }
  });

  test.each([
    ['/legal', '1 Example Street, EC1A 1BB London, Reino Unido', 'inscrita en Companies House con el número 01234567'],
    ['/en/legal', '1 Example Street, EC1A 1BB London, United Kingdom', 'registered at Companies House, number 01234567'],
  ])('the legal notice %s shows Acme’s legal name, tax ID, office, registry entry and e-mail', async (url, office, registry) => {
    const res = await request(app).get(url);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Acme S.L.');
    expect(res.text).toContain('GB-123456789');
    expect(res.text).toContain(office);
    expect(res.text).toContain(registry);
    expect(res.text).toContain('<a href="mailto:info@acme-consulting.example">info@acme-consulting.example</a>');
    // The description (meta tags) names the site too.
    expect(res.text).toMatch(/<meta name="description" content="[^"]*Acme/);
  });

  test.each(['/privacy', '/en/privacy'])('the privacy policy %s names Acme S.L. as the controller, at its office', async (url) => {
    const res = await request(app).get(url);
    expect(res.text).toContain('Acme S.L.');
    expect(res.text).toContain('GB-123456789');
    expect(res.text).toContain('1 Example Street, EC1A 1BB London');
  });

  test('the home page’s structured data gives the same legal name and tax ID', async () => {
    const res = await request(app).get('/en');
    expect(res.text).toContain('"legalName":"Acme S.L."');
    expect(res.text).toContain('"taxID":"GB-123456789"');
  });
});

test('an explicit legal name and registered office win over SITE_NAME and the contact address; values are HTML-escaped', async () => {
  const brand = acmeBrand({
    name: 'Smith & <Sons> Consulting Ltd',
    registeredOffice: { street: '2 Registered Row', postalCode: 'SW1A 1AA', city: 'London', country: 'GB' },
  });
  const { app } = await createTestApp({ SITE_NAME: 'Acme' }, { brand });
  const res = await request(app).get('/en/legal');
  expect(res.text).toContain('Smith &amp; &lt;Sons&gt; Consulting Ltd');
  expect(res.text).not.toContain('<Sons>');
  expect(res.text).toContain('2 Registered Row, SW1A 1AA London, United Kingdom');
  expect(res.text).not.toContain('Acme S.L.');
});

/** Every text file under a folder of the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(PATHS.root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(md|json)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const CONTENT_FILES = [...filesUnder('content'), ...filesUnder('locales')].map((file) => ({
  file: relative(PATHS.root, file),
  text: readFileSync(file, 'utf8'),
}));

test('content/ and locales/ are read (the walk finds the legal pages and the messages)', () => {
  const names = CONTENT_FILES.map(({ file }) => file.split('\\').join('/'));
  expect(names).toEqual(expect.arrayContaining(['content/legal/legal/es.md', 'content/legal/privacy/en.md', 'locales/es/common.json']));
});

test.each(CONTENT_FILES)('$file writes no company name, address, tax ID or registry entry (placeholders do)', ({ file, text }) => {
  const brand = loadBrand();
  const facts = [
    shipped.legalName,
    `${DEFAULT_SITE_NAME} S.L`,
    'Calle de Ejemplo',
    brand.contact.address.street,
    shipped.taxId,
    shipped.registry.es,
    shipped.registry.en,
    brand.contact.email,
    brand.contact.phone,
    'Registro Mercantil',
  ];
  expect(
    facts.filter((fact) => text.includes(fact)),
    file,
  ).toEqual([]);
  // The legal pages name the site through {{siteName}} too.
  if (file.split('\\').join('/').startsWith('content/legal/')) expect(text, file).not.toContain(DEFAULT_SITE_NAME);
});

test.each(CONTENT_FILES.filter(({ file }) => file.startsWith('content')))('$file uses only known placeholders', ({ text }) => {
  const used = [...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((match) => match[1]!);
  expect(used.filter((name) => !(PLACEHOLDER_NAMES as string[]).includes(name))).toEqual([]);
});

// The content's placeholders (server/content/placeholders.ts, docs/decisions/035): filled in on
// what a content source answers, HTML escaped; a misspelt one stops the build and the start.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadBrand } from '../server/brand/brand.ts';
import { companyOf, type Company } from '../server/brand/company.ts';
import { loadEmbeddedContent } from '../server/content/embedded.ts';
import { parseFrontMatter } from '../server/content/front-matter.ts';
import { fillHtml, fillText, placeholderValues, unknownPlaceholders, withCompany } from '../server/content/placeholders.ts';
import { htmlKey, prerenderedOf, renderMarkdown } from '../server/content/prerendered.ts';
import type { ContentSource } from '../server/content/source.ts';
import type { LegalDocument, PostSummary } from '../shared/page-data.ts';
import { LEGAL_PAGES } from '../shared/routes.ts';
import { inEveryLocale } from './brand/helpers.ts';

const ACME: Company = {
  siteName: 'Acme',
  legalName: 'Acme & <Co> S.L.',
  taxId: 'B-12345678',
  registeredOffice: inEveryLocale({ es: 'Calle Mayor 1, 28013 Madrid, España', en: 'Calle Mayor 1, 28013 Madrid, Spain' }),
  registry: inEveryLocale({ es: 'inscrita en el registro', en: 'registered in the register' }),
  email: 'hola@acme.example',
  phone: '+34 910 000 001',
};
const ES = placeholderValues(ACME, 'es');

test('in HTML a value is escaped: a name with & and < cannot add markup', () => {
  expect(fillHtml('<p>{{company.legalName}}</p>', ES)).toBe('<p>Acme &amp; &lt;Co&gt; S.L.</p>');
});

test('in plain text (a title, a description) a value is written as it is: React escapes it later', () => {
  expect(fillText('Aviso legal de {{siteName}} ({{company.legalName}})', ES)).toBe('Aviso legal de Acme (Acme & <Co> S.L.)');
});

test('a placeholder in a link, as the Markdown renderer encodes it, becomes the value as a URL', async () => {
  const html = await renderMarkdown('[{{company.email}}](mailto:{{company.email}})');
  expect(fillHtml(html, ES)).toBe('<p><a href="mailto:hola@acme.example">hola@acme.example</a></p>');
});

test('spaces inside the braces are allowed; the language picks the address and registry entry', () => {
  const en = placeholderValues(ACME, 'en');
  expect(fillText('{{ company.address }} · {{company.registry}}', en)).toBe(
    'Calle Mayor 1, 28013 Madrid, Spain · registered in the register',
  );
});

test('braces that are not ours are text: a post about templates keeps its {{ title }}', () => {
  expect(fillHtml('<code>{{ title }}</code>', ES)).toBe('<code>{{ title }}</code>');
  expect(unknownPlaceholders('<code>{{ title }}</code> {{user.name}}')).toEqual([]);
});

test('a misspelt placeholder of ours is found, in any case', () => {
  expect(unknownPlaceholders('{{company.nmae}} {{SiteName}} {{ site_name }} {{companyName}} {{siteName}} {{company.email}}')).toEqual([
    '{{company.nmae}}',
    '{{SiteName}}',
    '{{ site_name }}',
    '{{companyName}}',
  ]);
});

test('a content file with a misspelt placeholder stops the build and the start, naming the file and the known ones', () => {
  expect(() => parseFrontMatter('---\ntitle: t\n---\nSomos {{company.name}}.', 'content/legal/legal/es.md')).toThrow(
    /^content\/legal\/legal\/es\.md: unknown placeholder \{\{company\.name\}\} \(known: \{\{siteName\}\}, \{\{company\.legalName\}\}/,
  );
});

const legalDoc = (fields: Partial<LegalDocument>): LegalDocument => ({
  page: 'legal',
  locale: 'es',
  title: 'Aviso legal de {{siteName}}',
  description: 'Quién es {{company.legalName}}',
  updated: '2026-01-01',
  html: '<p>{{company.legalName}}, {{company.address}}</p>',
  ...fields,
});

function sourceOf(docs: LegalDocument[], posts: PostSummary[] = []): ContentSource {
  return {
    listPosts: async () => posts,
    getPost: async () => null,
    getLegal: async (page, locale) =>
      docs.find((doc) => doc.page === page && doc.locale === locale) ?? docs.find((doc) => doc.page === page) ?? null,
    getHome: async () => null,
    listCaseStudies: async () => [],
    listPractices: async () => [],
    getAuthor: async () => null,
  };
}

test('whatever the source (Markdown or Strapi), a legal page’s title, description and HTML are filled in', async () => {
  const doc = await withCompany(sourceOf([legalDoc({})]), ACME).getLegal('legal', 'es');
  expect(doc).toMatchObject({
    title: 'Aviso legal de Acme',
    description: 'Quién es Acme & <Co> S.L.',
    html: '<p>Acme &amp; &lt;Co&gt; S.L., Calle Mayor 1, 28013 Madrid, España</p>',
  });
});

test('a legal page shown in the default language’s text (no translation) is filled in that language', async () => {
  const doc = await withCompany(sourceOf([legalDoc({})]), ACME).getLegal('legal', 'en');
  expect(doc?.html).toContain('España');
});

test('a list is walked once: the same list from the source gives the same filled list', async () => {
  const post: PostSummary = {
    slug: 'a',
    title: 'Con {{siteName}}',
    description: 'd',
    date: '2026-01-01',
    author: 'A',
    locale: 'es',
    tags: [],
    cover: null,
    translations: { es: 'a' },
  };
  const list = [post];
  const content = withCompany(sourceOf([], list), ACME);
  const first = await content.listPosts('es');
  expect(first[0]!.title).toBe('Con Acme');
  expect(await content.listPosts('es')).toBe(first);
  // Nothing to fill: the source's own objects.
  const plain = [{ ...post, title: 'Sin nada' }];
  expect(await withCompany(sourceOf([], plain), ACME).listPosts('es')).toBe(plain);
});

test('the build’s HTML keeps the placeholders: another SITE_NAME or brand.json shows at start without a build', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'content-'));
  const body = '\nTitular: {{company.legalName}}, CIF {{company.taxId}}.\n';
  for (const page of LEGAL_PAGES) {
    await mkdir(join(dir, 'legal', page), { recursive: true });
    await writeFile(join(dir, 'legal', page, 'es.md'), `---\ntitle: ${page}\ndescription: d\nupdated: 2026-01-01\n---\n${body}`);
  }
  await mkdir(join(dir, 'blog'));
  // What the build wrote (its key depends on the Markdown alone, not on who the company is).
  const built = prerenderedOf(new Map([[htmlKey(body), await renderMarkdown(body)]]));
  const source = await loadEmbeddedContent(dir, built);
  const brand = loadBrand();
  for (const siteName of ['Acme', 'Zeta']) {
    const doc = await withCompany(source, companyOf(brand, siteName)).getLegal('legal', 'es');
    expect(doc?.html).toBe(`<p>Titular: ${siteName} S.L., CIF ${brand.legal.taxId}.</p>`);
  }
});

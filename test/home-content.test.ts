// The home page's content in Markdown (server/content/home.ts): figures and client logos in
// content/home/<locale>.md, case studies in content/case-studies/<slug>/<locale>.md. The shipped
// files are sample content; a file that breaks the rules stops the start, naming it.
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadEmbeddedContent } from '../server/content/embedded.ts';
import { loadEmbeddedHome } from '../server/content/home.ts';
import { createContentImages } from '../server/content/images.ts';
import { prerenderedOf } from '../server/content/prerendered.ts';
import { PATHS } from '../server/base/paths.ts';

const LOGO = join(PATHS.content, 'home', 'nortia.svg');

/** A content folder with these files (path → text; `*.svg` values name a file to copy). */
async function contentWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'home-content-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    if (path.endsWith('.svg')) await copyFile(text, join(dir, path));
    else await writeFile(join(dir, path), text);
  }
  return dir;
}

function load(dir: string) {
  return loadEmbeddedHome(dir, prerenderedOf(new Map()), createContentImages({ manifest: new Map() }));
}

const STUDY = {
  title: 'A title',
  client: 'A client',
  sector: 'A sector',
  practice: 'data',
  quote: 'Words.',
  quoteBy: 'Ana, CEO',
  order: '1',
};

function frontMatter(fields: Record<string, string>, body = 'The story.'): string {
  return `---\n${Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')}\n---\n\n${body}\n`;
}

test('the shipped home has four figures and five named client logos in each language, marked as samples', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of ['es', 'en'] as const) {
    const home = await content.getHome(locale);
    expect(home?.sample).toBe(true);
    expect(home?.figures).toHaveLength(4);
    expect(home?.logos.map((logo) => logo.alt)).toHaveLength(5);
    for (const logo of home?.logos ?? []) {
      expect(logo.alt.length).toBeGreaterThan(3);
      expect(logo.width).toBeGreaterThan(logo.height);
      expect(logo.src).toMatch(/^\/assets\/content\//);
    }
  }
  expect((await content.getHome('es'))?.figures[0]).toEqual({ value: '+140', label: 'expertos independientes en la red' });
  expect((await content.getHome('en'))?.figures[0]).toEqual({ value: '140+', label: 'independent experts in the network' });
});

test('the shipped case studies: three in each language, in their order, sample content, their story as HTML', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of ['es', 'en'] as const) {
    const studies = await content.listCaseStudies(locale);
    expect(studies.map((s) => s.slug)).toEqual(['valdeluz-online-services', 'nortia-demand-forecast', 'olmedal-sustainability-report']);
    expect(studies.map((s) => s.practice)).toEqual(['digital', 'data', 'sustainability']);
    for (const study of studies) {
      expect(study.locale).toBe(locale);
      expect(study.sample).toBe(true);
      expect(study.result?.value).toBeTruthy();
      expect(study.html).toMatch(/^<p>/);
      // The sample notice is a comment in the file, never on the page.
      expect(study.html).not.toContain('<!--');
    }
  }
});

test('figures are "value | label", numbered from 1, in order', async () => {
  const dir = await contentWith({
    'home/es.md': frontMatter({ figure2: '9 días | de media', figure1: '+140 | expertos' }, ''),
  });
  expect(await (await load(dir)).getHome('es')).toEqual({
    figures: [
      { value: '+140', label: 'expertos' },
      { value: '9 días', label: 'de media' },
    ],
    logos: [],
    sample: false,
  });
});

test('a logo is "file | Client name": a file of content/home/, its name the image’s alt', async () => {
  const dir = await contentWith({ 'home/es.md': frontMatter({ logo1: 'nortia.svg | Nortia Logística' }, ''), 'home/nortia.svg': LOGO });
  const [logo] = (await (await load(dir)).getHome('es'))?.logos ?? [];
  expect(logo).toEqual({
    src: expect.stringMatching(/^\/assets\/content\/[0-9a-f]{16}\.svg$/),
    width: 240,
    height: 96,
    alt: 'Nortia Logística',
  });
});

test('a language without its own logos shows the default language’s; a language without a file shows the default’s home', async () => {
  const dir = await contentWith({
    'home/es.md': frontMatter({ figure1: '1 | uno', logo1: 'nortia.svg | Nortia' }, ''),
    'home/en.md': frontMatter({ figure1: '1 | one' }, ''),
    'home/nortia.svg': LOGO,
  });
  const home = await load(dir);
  expect((await home.getHome('en'))?.figures).toEqual([{ value: '1', label: 'one' }]);
  expect((await home.getHome('en'))?.logos.map((l) => l.alt)).toEqual(['Nortia']);
  const onlySpanish = await load(await contentWith({ 'home/es.md': frontMatter({ figure1: '1 | uno' }, '') }));
  expect((await onlySpanish.getHome('en'))?.figures).toEqual([{ value: '1', label: 'uno' }]);
});

test('without content/home and content/case-studies the home has neither', async () => {
  const home = await load(await contentWith({}));
  expect(await home.getHome('es')).toBeNull();
  expect(await home.listCaseStudies('es')).toEqual([]);
});

test.each([
  ['a gap in the numbers', { figure1: '1 | a', figure3: '3 | c' }, /home\/es\.md: figure2 is missing/],
  ['a figure without its label', { figure1: '140' }, /home\/es\.md: figure1 must be "value \| label"/],
  ['a figure value too long', { figure1: `${'9'.repeat(25)} | a` }, /home\/es\.md: figure1 must be "value \| label" \(at most 24/],
  ['seven figures', Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`figure${i + 1}`, `${i} | x`])), /at most 6 figures/],
  ['a logo that is not there', { logo1: 'missing.svg | Missing' }, /home\/es\.md: logo missing\.svg not found/],
  ['a logo that is not an image file', { logo1: '../secret.txt | Secret' }, /home\/es\.md: logo \.\.\/secret\.txt must be an image file/],
  ['a misspelt field', { figur1: '1 | a' }, /home\/es\.md: figur1 is not a field of the home page/],
  ['sample that is neither yes nor no', { sample: 'true' }, /home\/es\.md: sample must be yes or no/],
])('a home file with %s stops the start, naming the file', async (_case, fields, message) => {
  const dir = await contentWith({ 'home/es.md': frontMatter(fields, '') });
  await expect(load(dir)).rejects.toThrow(message);
});

test('case studies are ordered by `order`, then by folder; a language lists only those written in it', async () => {
  const dir = await contentWith({
    'case-studies/b-second/es.md': frontMatter({ ...STUDY, order: '2', title: 'Second' }),
    'case-studies/a-third/es.md': frontMatter({ ...STUDY, order: '3', title: 'Third' }),
    'case-studies/c-first/es.md': frontMatter({ ...STUDY, order: '1', title: 'First', resultValue: '−18 %', resultLabel: 'km' }),
    'case-studies/c-first/en.md': frontMatter({ ...STUDY, title: 'First in English' }, 'The **story**.'),
  });
  const home = await load(dir);
  const spanish = await home.listCaseStudies('es');
  expect(spanish.map((s) => s.title)).toEqual(['First', 'Second', 'Third']);
  expect(spanish[0]?.result).toEqual({ value: '−18 %', label: 'km' });
  expect(spanish[1]?.result).toBeNull();
  expect(await home.listCaseStudies('en')).toEqual([
    {
      slug: 'c-first',
      locale: 'en',
      title: 'First in English',
      client: 'A client',
      sector: 'A sector',
      practice: 'data',
      result: null,
      quote: 'Words.',
      quoteBy: 'Ana, CEO',
      html: '<p>The <strong>story</strong>.</p>',
      sample: false,
      challenge: null,
      figures: [],
    },
  ]);
});

test.each([
  ['no title', { title: '' }, /case-studies\/x\/es\.md: title/],
  ['a practice the company does not have', { practice: 'marketing' }, /case-studies\/x\/es\.md: practice/],
  ['a result without its label', { resultValue: '+3' }, /case-studies\/x\/es\.md: resultLabel goes with resultValue/],
  ['an order that is not a number', { order: 'first' }, /case-studies\/x\/es\.md: order must be a whole number/],
  ['no quote', { quote: '' }, /case-studies\/x\/es\.md: quote/],
])('a case study with %s stops the start, naming the file and the field', async (_case, fields, message) => {
  const dir = await contentWith({ 'case-studies/x/es.md': frontMatter({ ...STUDY, ...fields }) });
  await expect(load(dir)).rejects.toThrow(message);
});

test('a case study folder that is not a slug stops the start', async () => {
  const dir = await contentWith({ 'case-studies/Not A Slug/es.md': frontMatter(STUDY) });
  await expect(load(dir)).rejects.toThrow(/content\/case-studies\/Not A Slug: a slug is/);
});

// The practices' pages, the case studies' further fields and the posts' authors in Markdown
// (server/content/practices.ts, home.ts): what each file gives, and how a file that breaks the
// rules stops the start, naming the file and the field. The shipped files are checked too.
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadEmbeddedContent } from '../server/content/embedded.ts';
import { loadEmbeddedHome } from '../server/content/home.ts';
import { createContentImages } from '../server/content/images.ts';
import { loadEmbeddedPractices } from '../server/content/practices.ts';
import { prerenderedOf } from '../server/content/prerendered.ts';
import { PATHS } from '../server/base/paths.ts';
import { LOCALE_CODES } from '../shared/locales.ts';
import { PRACTICES } from '../shared/practices.ts';

const PHOTO = join(PATHS.content, 'authors', 'marta-ruiz', 'photo.svg');

async function contentWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'practices-content-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    if (path.endsWith('.svg')) await copyFile(text, join(dir, path));
    else await writeFile(join(dir, path), text);
  }
  return dir;
}

const images = () => createContentImages({ manifest: new Map() });
const load = (dir: string) => loadEmbeddedPractices(dir, prerenderedOf(new Map()), images());

function frontMatter(fields: Record<string, string>, body = 'What it is.'): string {
  return `---\n${Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')}\n---\n\n${body}\n`;
}

const PRACTICE = { title: 'Data and analytics', description: 'Decisions made with data.' };
const AUTHOR = { name: 'Ana Gil', role: 'Data lead' };

test('every practice has its page in every language in the shipped content, with steps, engagements and a case study of its own', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of LOCALE_CODES) {
    const practices = await content.listPractices(locale);
    expect(practices.map((p) => p.practice)).toEqual([...PRACTICES]);
    const studies = await content.listCaseStudies(locale);
    for (const practice of practices) {
      expect(practice.html).toMatch(/<p>/);
      expect(practice.steps.length).toBeGreaterThanOrEqual(3);
      expect(practice.engagements.length).toBeGreaterThanOrEqual(3);
      if (practice.caseStudy) expect(studies.map((s) => s.slug)).toContain(practice.caseStudy);
    }
  }
});

test('every author the shipped posts name has a bio and a photo in every language', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of LOCALE_CODES) {
    for (const post of await content.listPosts(locale)) {
      const author = await content.getAuthor(post.author, locale);
      expect(author, `${post.author} (${locale})`).not.toBeNull();
      expect(author?.html).toMatch(/<p>/);
      expect(author?.photo).toMatchObject({ width: 160, height: 160, alt: post.author });
    }
  }
});

test('the shipped case studies say the challenge and further results in every language', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of LOCALE_CODES) {
    for (const study of await content.listCaseStudies(locale)) {
      expect(study.challenge).toBeTruthy();
      expect(study.figures.length).toBeGreaterThan(0);
    }
  }
});

test('a practice gives its title, description, what it is, numbered steps and engagements, in the order of the practices', async () => {
  const dir = await contentWith({
    'practices/data/en.md': frontMatter(
      { ...PRACTICE, caseStudy: 'nortia', step2: 'Build | We build it.', step1: 'Ask | We ask.', engagement1: 'A dashboard' },
      'We **decide** with data.',
    ),
    'practices/digital/en.md': frontMatter({ title: 'Digital', description: 'Change.' }),
    'practices/data/es.md': frontMatter({ title: 'Datos', description: 'Decidir con datos.' }),
  });
  const practices = await load(dir);
  expect(await practices.listPractices('en')).toEqual([
    {
      practice: 'digital',
      locale: 'en',
      title: 'Digital',
      description: 'Change.',
      html: '<p>What it is.</p>',
      steps: [],
      engagements: [],
      caseStudy: null,
    },
    {
      practice: 'data',
      locale: 'en',
      title: 'Data and analytics',
      description: 'Decisions made with data.',
      html: '<p>We <strong>decide</strong> with data.</p>',
      steps: [
        { title: 'Ask', text: 'We ask.' },
        { title: 'Build', text: 'We build it.' },
      ],
      engagements: ['A dashboard'],
      caseStudy: 'nortia',
    },
  ]);
  expect((await practices.listPractices('es')).map((p) => p.title)).toEqual(['Datos']);
});

test.each([
  ['a folder that is no practice', { 'practices/marketing/en.md': frontMatter(PRACTICE) }, /content\/practices\/marketing: not a practice/],
  ['no title', { 'practices/data/en.md': frontMatter({ description: 'x' }) }, /practices\/data\/en\.md: title/],
  [
    'a misspelt field',
    { 'practices/data/en.md': frontMatter({ ...PRACTICE, descripton: 'x' }) },
    /descripton is not a field of a practice/,
  ],
  ['a step without its text', { 'practices/data/en.md': frontMatter({ ...PRACTICE, step1: 'Ask' }) }, /step1 must be "title \| text"/],
  ['a gap in the steps', { 'practices/data/en.md': frontMatter({ ...PRACTICE, step2: 'Ask | We ask.' }) }, /step1 is missing/],
  [
    'seven steps',
    {
      'practices/data/en.md': frontMatter({ ...PRACTICE, ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`step${n}`, 'A | b'])) }),
    },
    /at most 6 steps/,
  ],
  [
    'a case study that is not a slug',
    { 'practices/data/en.md': frontMatter({ ...PRACTICE, caseStudy: 'Not A Slug' }) },
    /caseStudy must be/,
  ],
])('a practice with %s stops the start, naming the file and the field', async (_case, files, message) => {
  await expect(load(await contentWith(files))).rejects.toThrow(message);
});

test('an author is found by the name a post gives, whatever its case and accents, in the language or else the default one', async () => {
  const dir = await contentWith({
    'authors/ana-gil/es.md': frontMatter(
      { name: 'Ána Gil', role: 'Responsable de datos', photo: 'photo.svg' },
      'Veinte años con **datos**.',
    ),
    'authors/ana-gil/photo.svg': PHOTO,
    'authors/luis/en.md': frontMatter({ name: 'Luis Mora', role: 'Consultant' }, 'Writes.'),
  });
  const practices = await load(dir);
  expect(await practices.getAuthor('ana gil', 'es')).toEqual({
    name: 'Ána Gil',
    role: 'Responsable de datos',
    html: '<p>Veinte años con <strong>datos</strong>.</p>',
    photo: expect.objectContaining({ width: 160, height: 160, alt: 'Ána Gil' }),
  });
  // Not written in English: the Spanish text; not written in Spanish (the default): none.
  expect((await practices.getAuthor('Ana Gil', 'en'))?.role).toBe('Responsable de datos');
  expect(await practices.getAuthor('Luis Mora', 'es')).toBeNull();
  expect((await practices.getAuthor('Luis Mora', 'en'))?.photo).toBeNull();
  expect(await practices.getAuthor('Nobody', 'es')).toBeNull();
});

test.each([
  ['no role', { 'authors/a/es.md': frontMatter({ name: 'Ana' }) }, /authors\/a\/es\.md: role/],
  ['a photo that is not in the folder', { 'authors/a/es.md': frontMatter({ ...AUTHOR, photo: 'me.png' }) }, /photo me\.png not found/],
  [
    'a photo that is not an image',
    { 'authors/a/es.md': frontMatter({ ...AUTHOR, photo: 'me.pdf' }) },
    /photo me\.pdf must be an image file/,
  ],
  ['a folder that is not a slug', { 'authors/Ana Gil/es.md': frontMatter(AUTHOR) }, /content\/authors\/Ana Gil: a folder's name is/],
  [
    'two authors of one name',
    { 'authors/a/es.md': frontMatter(AUTHOR), 'authors/b/es.md': frontMatter(AUTHOR) },
    /another es author is named Ana Gil/,
  ],
])('an author with %s stops the start, naming the file', async (_case, files, message) => {
  await expect(load(await contentWith(files))).rejects.toThrow(message);
});

const STUDY = { title: 'T', client: 'C', sector: 'S', practice: 'data', quote: 'Q.', quoteBy: 'A, CEO', order: '1' };
const loadHome = (dir: string) => loadEmbeddedHome(dir, prerenderedOf(new Map()), images());

test('a case study gives its challenge and its further results in figures, in order', async () => {
  const dir = await contentWith({
    'case-studies/x/en.md': frontMatter({
      ...STUDY,
      challenge: 'Routes planned on last week.',
      figure2: '40 | routes',
      figure1: '9 weeks | to the model',
    }),
  });
  const [study] = await (await loadHome(dir)).listCaseStudies('en');
  expect(study?.challenge).toBe('Routes planned on last week.');
  expect(study?.figures).toEqual([
    { value: '9 weeks', label: 'to the model' },
    { value: '40', label: 'routes' },
  ]);
});

test.each([
  ['a figure without its label', { figure1: '40' }, /case-studies\/x\/en\.md: figure1 must be "value \| label"/],
  ['five figures', Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`figure${n}`, 'a | b'])), /at most 4 figures/],
  ['a misspelt field', { chalenge: 'x' }, /chalenge is not a field of a case study/],
])('a case study with %s stops the start, naming the file and the field', async (_case, fields, message) => {
  const dir = await contentWith({ 'case-studies/x/en.md': frontMatter({ ...STUDY, ...fields }) });
  await expect(loadHome(dir)).rejects.toThrow(message);
});

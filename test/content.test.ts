import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { loadEmbeddedContent, postBodyImages } from '../server/content/embedded.ts';
import { createContentImages, folderImages } from '../server/content/images.ts';
import { parseFrontMatter } from '../server/content/front-matter.ts';
import { markdownToSafeHtml } from '../server/content/markdown.ts';
import { htmlKey, loadPrerendered, markdownDigest, PRERENDERED_DIR, prerenderedOf, renderMarkdown } from '../server/content/prerendered.ts';
import { PATHS } from '../server/base/paths.ts';

test('Markdown becomes sanitised HTML: scripts, event handlers and javascript: links are removed', () => {
  const html = markdownToSafeHtml(
    '# Title\n\nHello <script>alert(1)</script> <img src="x" onerror="alert(1)"> [x](javascript:alert(1)) <iframe src="//evil"></iframe>\n\n**bold**',
  );
  expect(html).not.toMatch(/<script|onerror|javascript:|<iframe/i);
  expect(html).toContain('<strong>bold</strong>');
  expect(html).toContain('<h2>Title</h2>');
});

test('external links in Markdown open safely (noopener noreferrer)', () => {
  expect(markdownToSafeHtml('[site](https://example.com)')).toContain('rel="noopener noreferrer"');
  expect(markdownToSafeHtml('[post](/blog/x)')).toBe('<p><a href="/blog/x">post</a></p>');
});

test.each([
  ['www.aepd.es', '<a href="https://www.aepd.es" rel="noopener noreferrer" target="_blank">www.aepd.es</a>'],
  [
    'see www.example.org/path?q=1.',
    '<a href="https://www.example.org/path?q=1" rel="noopener noreferrer" target="_blank">www.example.org/path?q=1</a>',
  ],
  ['[regulator](http://www.aepd.es)', '<a href="http://www.aepd.es" rel="noopener noreferrer" target="_blank">regulator</a>'],
  ['http://example.com/x', '<a href="http://example.com/x" rel="noopener noreferrer" target="_blank">http://example.com/x</a>'],
  ['<http://example.com>', '<a href="http://example.com" rel="noopener noreferrer" target="_blank">http://example.com</a>'],
])('an http link or a bare www. address (%s) keeps its href, www. as https', (markdown, link) => {
  expect(markdownToSafeHtml(markdown)).toContain(link);
});

test.each([
  '[x](javascript:alert(1))',
  '[x](data:text/html,hi)',
  '[x](//evil.example/x)',
  '[x](ftp://example.com/f)',
  '<a href="vbscript:msgbox" target="_blank" rel="opener">x</a>',
  '<a target="_blank">x</a>',
])('a link whose href is refused (%s) keeps no target or rel either: never an <a target> without an href', (markdown) => {
  const html = markdownToSafeHtml(markdown);
  expect(html).toMatch(/<a>x<\/a>/);
  expect(html).not.toMatch(/target=|rel=|href=/);
});

test('the privacy policy links the regulator in every language: a working https link, no <a target> without an href', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of ['es', 'en'] as const) {
    const page = await content.getLegal('privacy', locale);
    expect(page?.html, locale).toContain('<a href="https://www.aepd.es" rel="noopener noreferrer" target="_blank">www.aepd.es</a>');
    for (const tag of page!.html.match(/<a\b[^>]*>/g) ?? []) if (/target=/.test(tag)) expect(tag, locale).toMatch(/href="https?:/);
  }
});

test('front matter without the --- block is a clear error naming the file', () => {
  expect(() => parseFrontMatter('no front matter', 'content/x.md')).toThrow(/content\/x\.md: missing front matter/);
});

test('the shipped content has every legal page and the posts in both locales', async () => {
  const content = await loadEmbeddedContent(PATHS.content);
  for (const locale of ['es', 'en'] as const) {
    const posts = await content.listPosts(locale);
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(posts.every((p) => p.locale === locale)).toBe(true);
    for (const page of ['cookies', 'legal', 'privacy', 'responsible'] as const) {
      const doc = await content.getLegal(page, locale);
      expect(doc?.locale).toBe(locale);
      expect(doc?.html.length).toBeGreaterThan(500);
    }
  }
});

async function contentDir(files: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'content-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const legal = (title: string) => `---\ntitle: ${title}\ndescription: d\nupdated: 2026-01-01\n---\nBody`;
const LEGAL_FILES = Object.fromEntries(['cookies', 'legal', 'privacy', 'responsible'].map((p) => [`legal/${p}/es.md`, legal(p)]));

test('a post not written in a locale is not offered there; a legal page falls back to the default locale', async () => {
  const dir = await contentDir({
    ...LEGAL_FILES,
    'blog/only-es/es.md': '---\ntitle: Solo español\ndescription: d\ndate: 2026-02-01\nauthor: A\n---\nTexto',
  });
  const content = await loadEmbeddedContent(dir);
  expect(await content.getPost('only-es', 'en')).toBeNull();
  expect(await content.listPosts('en')).toEqual([]);
  expect((await content.getPost('only-es', 'es'))?.translations).toEqual({ es: 'only-es' });
  expect((await content.getLegal('privacy', 'en'))?.locale).toBe('es');
});

test('a translation may have its own slug (front matter slug) and is linked by its folder or its translationKey', async () => {
  const post = (fields: string) => `---\ntitle: T\ndescription: d\ndate: 2026-02-01\nauthor: A\n${fields}---\nText`;
  const dir = await contentDir({
    ...LEGAL_FILES,
    'blog/briefing/es.md': post('slug: como-preparar\n'),
    'blog/briefing/en.md': post(''),
    'blog/audit-es/es.md': post('translationKey: audit\n'),
    'blog/audit-en/en.md': post('translationKey: audit\nslug: data-audit\n'),
  });
  const content = await loadEmbeddedContent(dir);
  expect((await content.getPost('como-preparar', 'es'))?.translations).toEqual({ es: 'como-preparar', en: 'briefing' });
  expect((await content.getPost('briefing', 'en'))?.translations).toEqual({ es: 'como-preparar', en: 'briefing' });
  expect(await content.getPost('briefing', 'es')).toBeNull();
  expect((await content.getPost('data-audit', 'en'))?.translations).toEqual({ es: 'audit-es', en: 'data-audit' });
});

test('tags come from the front matter, comma-separated, each with a slug of its name', async () => {
  const dir = await contentDir({
    ...LEGAL_FILES,
    'blog/a/es.md': '---\ntitle: T\ndescription: d\ndate: 2026-02-01\nauthor: A\ntags: Protección de datos, Pymes, pymes\n---\nx',
  });
  const content = await loadEmbeddedContent(dir);
  expect((await content.getPost('a', 'es'))?.tags).toEqual([
    { slug: 'proteccion-de-datos', name: 'Protección de datos' },
    { slug: 'pymes', name: 'Pymes' },
  ]);
});

test('two posts of one language with the same slug are refused at start, naming the file', async () => {
  const dir = await contentDir({
    ...LEGAL_FILES,
    'blog/a/es.md': '---\ntitle: T\ndescription: d\ndate: 2026-02-01\nauthor: A\nslug: same\n---\nx',
    'blog/b/es.md': '---\ntitle: T\ndescription: d\ndate: 2026-02-01\nauthor: A\nslug: same\n---\nx',
  });
  await expect(loadEmbeddedContent(dir)).rejects.toThrow(/b\/es\.md: another es post has the slug same/);
});

test('a post with an invalid date is refused at start with the file and field named', async () => {
  const dir = await contentDir({
    ...LEGAL_FILES,
    'blog/bad/en.md': '---\ntitle: T\ndescription: d\ndate: yesterday\nauthor: A\n---\nx',
  });
  await expect(loadEmbeddedContent(dir)).rejects.toThrow(/bad\/en\.md: date must be a date YYYY-MM-DD/);
});

/** Every Markdown body under content/ (after its front matter), by file. */
function contentBodies(dir = PATHS.content): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const file = join(entry.parentPath, entry.name);
    out.set(file, parseFrontMatter(readFileSync(file, 'utf8'), file).body);
  }
  return out;
}

test('the build renders every content Markdown file to the same HTML the renderer gives, beside the server bundle', async () => {
  const prerendered = loadPrerendered(join(PATHS.root, 'dist', 'server'));
  const bodies = contentBodies();
  expect(bodies.size).toBeGreaterThanOrEqual(16);
  const images = createContentImages();
  for (const [file, body] of bodies) {
    // A post's HTML is keyed by its Markdown and its folder's images (their renditions are in it).
    const isPost = dirname(dirname(file)) === join(PATHS.content, 'blog');
    const bodyImages = isPost ? postBodyImages(images, await folderImages(dirname(file)), file) : undefined;
    const key = htmlKey(body, bodyImages);
    expect(prerendered.has(key), file).toBe(true);
    expect(await prerendered.read(key), file).toBe(await renderMarkdown(body, bodyImages));
  }
  expect(readdirSync(join(PATHS.root, 'dist', 'server', PRERENDERED_DIR)).every((name) => /^[0-9a-f]{64}\.html$/.test(name))).toBe(true);
});

test('at start, content takes the HTML the build rendered, and renders only Markdown the build did not see', async () => {
  const [legalFile, legalBody] = [...contentBodies()].find(([file]) => file.includes(join('legal', 'privacy', 'en.md')))!;
  const content = await loadEmbeddedContent(
    PATHS.content,
    prerenderedOf(new Map([[markdownDigest(legalBody), '<p>rendered by the build</p>']])),
  );
  expect((await content.getLegal('privacy', 'en'))?.html, legalFile).toBe('<p>rendered by the build</p>');
  const cookies = contentBodies().get(join(PATHS.content, 'legal', 'cookies', 'en.md'))!;
  expect((await content.getLegal('cookies', 'en'))?.html).toBe(markdownToSafeHtml(cookies));
});

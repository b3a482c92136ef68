// Embedded content of a test's own: a temporary content/ folder (blog posts and the legal
// pages the site needs), loaded as the site loads content/ at start.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbeddedContent } from '../../server/content/embedded.ts';
import type { ContentSource } from '../../server/content/source.ts';
import { LEGAL_PAGES } from '../../shared/routes.ts';
import type { Locale } from '../../shared/locales.ts';

export type TestPost = {
  /** The folder (content/blog/<folder>/<locale>.md): the slug, unless `slug` is given. */
  folder: string;
  locale: Locale;
  title: string;
  description?: string;
  date: string;
  tags?: readonly string[];
  slug?: string;
  translationKey?: string;
};

function frontMatter(post: TestPost): string {
  const lines = [
    `title: ${post.title}`,
    `description: ${post.description ?? 'Una nota del blog.'}`,
    `date: ${post.date}`,
    'author: Equipo',
    ...(post.tags?.length ? [`tags: ${post.tags.join(', ')}`] : []),
    ...(post.slug ? [`slug: ${post.slug}`] : []),
    ...(post.translationKey ? [`translationKey: ${post.translationKey}`] : []),
  ];
  return `---\n${lines.join('\n')}\n---\n\nTexto de ${post.title}.\n`;
}

/** A content folder with these posts and a Spanish text of every legal page. */
export async function writeContentDir(posts: readonly TestPost[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'content-'));
  const files: Record<string, string> = {};
  for (const page of LEGAL_PAGES) {
    files[`legal/${page}/es.md`] = `---\ntitle: ${page}\ndescription: d\nupdated: 2026-01-01\n---\nTexto`;
  }
  for (const post of posts) files[`blog/${post.folder}/${post.locale}.md`] = frontMatter(post);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

export async function testContent(posts: readonly TestPost[]): Promise<ContentSource> {
  return loadEmbeddedContent(await writeContentDir(posts));
}

/** The day `n` days before 2026-10-01: post 1 is the newest. */
export function daysBefore(n: number): string {
  return new Date(Date.UTC(2026, 9, 1) - n * 86_400_000).toISOString().slice(0, 10);
}

// Embedded content: Markdown files in content/, read once at start; their HTML comes from the
// build (prerendered.ts) or is rendered then, never per request.
//   content/blog/<slug>/<locale>.md    front matter: title, description, date, author
//   content/legal/<page>/<locale>.md   front matter: title, description, updated
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { LegalDocument, Post, PostSummary } from '../../shared/page-data.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import { parseFrontMatter } from './front-matter.ts';
import { loadPrerendered, markdownHtml, type Prerendered } from './prerendered.ts';
import type { ContentSource } from './source.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const postMeta = z.object({
  title: z.string().min(1),
  description: z.string().min(1),
  date: isoDate,
  author: z.string().min(1),
});
const legalMeta = z.object({ title: z.string().min(1), description: z.string().min(1), updated: isoDate });
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

async function readLocalized<T>(dir: string, parse: (file: string, source: string, locale: Locale) => Promise<T>) {
  const byLocale = new Map<Locale, T>();
  for (const locale of LOCALE_CODES) {
    const file = join(dir, `${locale}.md`);
    const source = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (source !== null) byLocale.set(locale, await parse(file, source, locale));
  }
  return byLocale;
}

function pick<T>(byLocale: Map<Locale, T> | undefined, locale: Locale): T | null {
  return byLocale?.get(locale) ?? byLocale?.get(defaultLocale) ?? null;
}

export async function loadEmbeddedContent(contentDir: string, prerendered: Prerendered = loadPrerendered()): Promise<ContentSource> {
  const posts = new Map<string, Map<Locale, Post>>();
  const blogDir = join(contentDir, 'blog');
  const slugs = (await readdir(blogDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  for (const slug of slugs) {
    if (!SLUG.test(slug)) throw new Error(`content/blog/${slug}: a slug is lower-case letters, digits and hyphens`);
    const byLocale = await readLocalized(join(blogDir, slug), async (file, source, locale): Promise<Post> => {
      const { attributes, body } = parseFrontMatter(source, file);
      const meta = postMeta.safeParse(attributes);
      if (!meta.success) throw new Error(`${file}: ${meta.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      return { slug, locale, ...meta.data, html: await markdownHtml(body, prerendered) };
    });
    if (byLocale.size > 0) posts.set(slug, byLocale);
  }

  const legal = new Map<LegalPageKey, Map<Locale, LegalDocument>>();
  for (const page of LEGAL_PAGES) {
    const byLocale = await readLocalized(join(contentDir, 'legal', page), async (file, source, locale): Promise<LegalDocument> => {
      const { attributes, body } = parseFrontMatter(source, file);
      const meta = legalMeta.safeParse(attributes);
      if (!meta.success) throw new Error(`${file}: ${meta.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      return { page, locale, ...meta.data, html: await markdownHtml(body, prerendered) };
    });
    if (byLocale.size === 0) throw new Error(`content/legal/${page}: no ${LOCALE_CODES.join('/')}.md found`);
    legal.set(page, byLocale);
  }

  // Lists are computed once per locale: newest first, ties by slug for a stable order.
  const lists = new Map<Locale, PostSummary[]>();
  for (const locale of LOCALE_CODES) {
    const list = [...posts.values()]
      .map((byLocale) => pick(byLocale, locale))
      .filter((p): p is Post => p !== null)
      .map(({ html: _html, ...summary }) => summary)
      .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
    lists.set(locale, list);
  }

  return {
    listPosts: async (locale) => lists.get(locale) ?? [],
    getPost: async (slug, locale) => pick(posts.get(slug), locale),
    getLegal: async (page, locale) => pick(legal.get(page), locale),
  };
}

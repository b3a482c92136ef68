// Embedded content: Markdown files in content/, read once at start; their HTML comes from the
// build (prerendered.ts) or is rendered then, never per request.
//   content/blog/<slug>/<locale>.md    front matter: title, description, date, author; optional:
//                                      slug (this language's, else the folder's name),
//                                      translationKey (posts sharing it translate each other;
//                                      else the folder's name), tags (comma-separated), updated
//   content/legal/<page>/<locale>.md   front matter: title, description, updated
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { SLUG_PATTERN, tagsOf } from '../../shared/blog.ts';
import type { LegalDocument, Post, PostSummary } from '../../shared/page-data.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import { parseFrontMatter } from './front-matter.ts';
import { loadPrerendered, markdownHtml, type Prerendered } from './prerendered.ts';
import type { ContentSource } from './source.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const slug = z.string().regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens');
const postMeta = z.object({
  title: z.string().min(1),
  description: z.string().min(1),
  date: isoDate,
  updated: isoDate.optional(),
  author: z.string().min(1),
  slug: slug.optional(),
  translationKey: z.string().min(1).max(200).optional(),
  tags: z
    .string()
    .optional()
    .transform((list) => tagsOf((list ?? '').split(','))),
});
const legalMeta = z.object({ title: z.string().min(1), description: z.string().min(1), updated: isoDate });

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

type Written = { post: Post; key: string; file: string };

export async function loadEmbeddedContent(contentDir: string, prerendered: Prerendered = loadPrerendered()): Promise<ContentSource> {
  const written: Written[] = [];
  const blogDir = join(contentDir, 'blog');
  const folders = (await readdir(blogDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  for (const folder of folders) {
    if (!SLUG_PATTERN.test(folder)) throw new Error(`content/blog/${folder}: a slug is lower-case letters, digits and hyphens`);
    const byLocale = await readLocalized(join(blogDir, folder), async (file, source, locale): Promise<Written> => {
      const { attributes, body } = parseFrontMatter(source, file);
      const meta = postMeta.safeParse(attributes);
      if (!meta.success) throw new Error(`${file}: ${meta.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      const { slug = folder, translationKey = folder, ...fields } = meta.data;
      const post: Post = { ...fields, slug, locale, cover: null, translations: {}, html: await markdownHtml(body, prerendered) };
      return { post, key: translationKey, file };
    });
    written.push(...byLocale.values());
  }

  // A post is found by its language and its slug; its translations share its translationKey.
  const posts = new Map<string, Post>();
  const groups = new Map<string, Post[]>();
  for (const { post, key, file } of written) {
    const id = `${post.locale}:${post.slug}`;
    if (posts.has(id)) throw new Error(`${file}: another ${post.locale} post has the slug ${post.slug}`);
    posts.set(id, post);
    const group = groups.get(key) ?? [];
    if (group.some((other) => other.locale === post.locale)) {
      throw new Error(`${file}: another ${post.locale} post has the translationKey ${key}`);
    }
    group.push(post);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const translations = Object.fromEntries(group.map((post) => [post.locale, post.slug]));
    for (const post of group) post.translations = translations;
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
      .filter((post) => post.locale === locale)
      .map(({ html: _html, ...summary }) => summary)
      .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
    lists.set(locale, list);
  }

  return {
    listPosts: async (locale) => lists.get(locale) ?? [],
    getPost: async (slug, locale) => posts.get(`${locale}:${slug}`) ?? null,
    getLegal: async (page, locale) => pick(legal.get(page), locale),
  };
}

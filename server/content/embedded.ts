// Embedded content: Markdown files in content/, read once at start; their HTML comes from the
// build (prerendered.ts) or is rendered then, never per request. A post's summary stays in
// memory (the lists); its HTML is read from the build's folder when the post is asked for, and
// the most recently read ones are kept (POST_HTML_CACHE): memory does not grow with the posts'
// text, however many there are.
//   content/blog/<slug>/<locale>.md    front matter: title, description, date, author; optional:
//                                      slug (this language's, else the folder's name),
//                                      translationKey (posts sharing it translate each other;
//                                      else the folder's name), tags (comma-separated), updated,
//                                      cover (an image file in the folder) with coverAlt
//   content/blog/<slug>/<image>        the post's images: its cover, and `![alt](figure.png)`
//                                      in its Markdown (renditions from the build: images.ts)
//   content/legal/<page>/<locale>.md   front matter: title, description, updated
//   content/home/, content/case-studies/  the home page's figures, logos and case studies (home.ts)
//   content/practices/, content/authors/   the practices' pages and the posts' authors (practices.ts)
//   content/redirects.json             the editors' redirects, a list of {from, to, status}
//                                      (redirects.ts; optional): a bad entry is refused alone
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { POST_IMAGE_SIZES, SLUG_PATTERN, tagsOf } from '../../shared/blog.ts';
import type { LegalDocument, Post, PostSummary } from '../../shared/page-data.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import { parseFrontMatter } from './front-matter.ts';
import { IMAGE_FILE_NAME, type SizedImage } from './image-manifest.ts';
import { loadEmbeddedHome } from './home.ts';
import { loadEmbeddedPractices } from './practices.ts';
import { buildRedirectTable, NO_REDIRECTS, type RedirectTable } from './redirects.ts';
import { createContentImages, folderImages, type ContentImages, type FolderImages } from './images.ts';
import { htmlKey, loadPrerendered, markdownHtml, renderMarkdown, type BodyImages, type Prerendered } from './prerendered.ts';
import type { ContentSource } from './source.ts';
import { BoundedMap } from '../../shared/bounded-map.ts';
import { PARSE_ONCE } from '../base/parse-once.ts';

const IMAGE_RULE = "must be an image file in the post's folder (name.svg, .png, .jpg or .webp)";
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const slug = z.string().regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens');
const postMeta = z
  .object({
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
    cover: z.string().regex(IMAGE_FILE_NAME, IMAGE_RULE).optional(),
    coverAlt: z.string().min(1).max(300).optional(),
  })
  .refine((meta) => !meta.cover || meta.coverAlt, {
    path: ['coverAlt'],
    message: 'is required with a cover (what the image shows, for those who cannot see it)',
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

/** How many posts' HTML are kept in memory, the most recently read. */
export const POST_HTML_CACHE = 100;

/** A post as kept: its summary, and how to get its HTML (the build's file, or what was rendered at start). */
type StoredPost = { summary: PostSummary; html: () => Promise<string> };

type Written = { stored: StoredPost; key: string; file: string };

/**
 * The image `src` (a cover's name, a relative src in the Markdown) stands for in a post's folder;
 * an error naming the post's file when it is not an image file there.
 */
export function postImage(images: ContentImages, folder: FolderImages, file: string, src: string): Promise<SizedImage> {
  const name = src.replace(/^\.\//, '');
  if (!IMAGE_FILE_NAME.test(name)) return Promise.reject(new Error(`${file}: image ${src} ${IMAGE_RULE}`));
  const digest = folder.digests.get(name);
  if (digest === undefined) return Promise.reject(new Error(`${file}: image ${name} not found (put it in ${folder.dir})`));
  if (digest === null) return Promise.reject(new Error(`${join(folder.dir, name)}: larger than an image may be`));
  return images.image(join(folder.dir, name), digest);
}

/** The images a post's Markdown may show: its folder's, shown in the post's column. */
export function postBodyImages(images: ContentImages, folder: FolderImages, file: string): BodyImages {
  return {
    context: folder.context,
    resolve: async (src) => ({ ...(await postImage(images, folder, file, src)), sizes: POST_IMAGE_SIZES }),
  };
}

/**
 * content/redirects.json: none when the file is absent. A file that is not a JSON list stops the
 * start, as any content file that cannot be read does; each entry is then checked alone.
 */
async function loadEmbeddedRedirects(contentDir: string): Promise<RedirectTable> {
  const file = join(contentDir, 'redirects.json');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return NO_REDIRECTS;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (!Array.isArray(list)) throw new Error(`${file}: must be a JSON list of redirects ([{"from": "/old", "to": "/new"}])`);
  return buildRedirectTable(list, (index) => `content/redirects.json entry ${index + 1}`);
}

export async function loadEmbeddedContent(
  contentDir: string,
  prerendered: Prerendered = loadPrerendered(),
  images: ContentImages = createContentImages(),
): Promise<ContentSource> {
  const written: Written[] = [];
  const blogDir = join(contentDir, 'blog');
  const folders = (await readdir(blogDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  for (const folder of folders) {
    if (!SLUG_PATTERN.test(folder)) throw new Error(`content/blog/${folder}: a slug is lower-case letters, digits and hyphens`);
    const inFolder = await folderImages(join(blogDir, folder));
    const byLocale = await readLocalized(join(blogDir, folder), async (file, source, locale): Promise<Written> => {
      const { attributes, body } = parseFrontMatter(source, file);
      const meta = postMeta.safeParse(attributes, PARSE_ONCE);
      if (!meta.success) throw new Error(`${file}: ${meta.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      const { slug = folder, translationKey = folder, cover: coverName, coverAlt = '', ...fields } = meta.data;
      const cover = coverName ? { ...(await postImage(images, inFolder, file, coverName)), alt: coverAlt } : null;
      const bodyImages = postBodyImages(images, inFolder, file);
      const key = htmlKey(body, bodyImages);
      // What the build did not see is rendered now (an error in it stops the start) and kept.
      const rendered = prerendered.has(key) ? null : await renderMarkdown(body, bodyImages);
      // A copy: the front matter's strings are slices of the whole file, which they would keep in memory.
      const summary: PostSummary = structuredClone({ ...fields, slug, locale, cover, translations: {} });
      const stored: StoredPost = { summary, html: rendered === null ? () => prerendered.read(key) : async () => rendered };
      return { stored, key: translationKey, file };
    });
    written.push(...byLocale.values());
  }

  // A post is found by its language and its slug; its translations share its translationKey.
  const posts = new Map<string, StoredPost>();
  const groups = new Map<string, PostSummary[]>();
  for (const { stored, key, file } of written) {
    const post = stored.summary;
    const id = `${post.locale}:${post.slug}`;
    if (posts.has(id)) throw new Error(`${file}: another ${post.locale} post has the slug ${post.slug}`);
    posts.set(id, stored);
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
      const meta = legalMeta.safeParse(attributes, PARSE_ONCE);
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
      .map((post) => post.summary)
      .filter((post) => post.locale === locale)
      .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
    lists.set(locale, list);
  }

  const home = await loadEmbeddedHome(contentDir, prerendered, images);
  const practices = await loadEmbeddedPractices(contentDir, prerendered, images);
  const redirects = await loadEmbeddedRedirects(contentDir);

  // The posts' HTML most recently read, oldest first (a Map keeps its insertion order).
  const htmlCache = new BoundedMap<string, string>(POST_HTML_CACHE);
  async function getPost(slug: string, locale: Locale): Promise<Post | null> {
    const id = `${locale}:${slug}`;
    const stored = posts.get(id);
    if (!stored) return null;
    let html = htmlCache.touch(id);
    if (html === undefined) {
      html = await stored.html();
      htmlCache.set(id, html);
    }
    return { ...stored.summary, html };
  }

  return {
    listPosts: async (locale) => lists.get(locale) ?? [],
    getPost,
    getLegal: async (page, locale) => pick(legal.get(page), locale),
    ...home,
    ...practices,
    redirects: async () => redirects,
  };
}

// Markdown rendered at build time. The build writes, beside the server bundle, the sanitised
// HTML of every Markdown file in content/, one file per Markdown named by a SHA-256 of it; the
// server lists the names at start and reads an HTML file when it is asked for (a site of
// thousands of posts keeps none of their HTML in memory: embedded.ts caches a few). The
// Markdown renderer is loaded only for what is missing (content edited after the build, or
// the tests, which run from source and have no such folder).
// A post's HTML also depends on the images beside it (their renditions' URLs and sizes): its
// key then takes in a digest of those images too.
import { hash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalImage } from './markdown.ts';
import { loadMarkdown } from './markdown-lazy.ts';

/** The folder beside the server bundle that holds `<key>.html` per Markdown file. */
export const PRERENDERED_DIR = 'content-html';

/** The build's HTML: which Markdown it rendered (in memory), and each one's HTML (read when asked for). */
export type Prerendered = {
  has(key: string): boolean;
  read(key: string): Promise<string>;
};

/** Hex, so that a key is a file name on every file system (case-insensitive ones too). */
export function markdownDigest(markdown: string): string {
  return hash('sha256', markdown, 'hex');
}

/** HTML held in memory, by key (the tests' stand-in for the build's folder). */
export function prerenderedOf(html: ReadonlyMap<string, string>): Prerendered {
  return {
    has: (key) => html.has(key),
    read: async (key) => {
      const known = html.get(key);
      if (known === undefined) throw new Error(`No pre-rendered HTML for ${key}`);
      return known;
    },
  };
}

/** The build's pre-rendered HTML beside the running bundle (dist/server/), or none. */
export function loadPrerendered(dir = dirname(fileURLToPath(import.meta.url))): Prerendered {
  const folder = join(dir, PRERENDERED_DIR);
  const keys = new Set(
    existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => name.endsWith('.html'))
          .map((name) => name.slice(0, -'.html'.length))
      : [],
  );
  return { has: (key) => keys.has(key), read: (key) => readFile(join(folder, `${key}.html`), 'utf8') };
}

/** Writes the HTML by key where loadPrerendered(dir) finds it (the build; the scale bench's sites). */
export async function writePrerendered(dir: string, html: ReadonlyMap<string, string>): Promise<void> {
  const folder = join(dir, PRERENDERED_DIR);
  await mkdir(folder, { recursive: true });
  for (const [key, text] of html) await writeFile(join(folder, `${key}.html`), text);
}

/** The images a post's Markdown may show: those of its folder. */
export type BodyImages = {
  /** A digest of the folder's images ('' when there are none). */
  context: string;
  /** The image a relative src stands for; rejects, naming the file, when there is none. */
  resolve(src: string): Promise<LocalImage>;
};

/** The key of a Markdown file's HTML in the build's folder. */
export function htmlKey(markdown: string, images?: BodyImages): string {
  return images?.context ? markdownDigest(`${markdown}\0${images.context}`) : markdownDigest(markdown);
}

/** Markdown → sanitised HTML, its relative images resolved first (their sizes are read asynchronously). */
export async function renderMarkdown(markdown: string, images?: BodyImages): Promise<string> {
  const { markdownToSafeHtml, localImageNames } = await loadMarkdown();
  if (!images) return markdownToSafeHtml(markdown);
  const resolved = new Map<string, LocalImage>();
  for (const src of localImageNames(markdown)) resolved.set(src, await images.resolve(src));
  return markdownToSafeHtml(markdown, { localImage: (src) => resolved.get(src) ?? null });
}

/** The sanitised HTML of `markdown`: pre-rendered when the build saw it, else rendered now. */
export async function markdownHtml(markdown: string, prerendered: Prerendered, images?: BodyImages): Promise<string> {
  const key = htmlKey(markdown, images);
  return prerendered.has(key) ? prerendered.read(key) : renderMarkdown(markdown, images);
}

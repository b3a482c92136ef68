// A content folder of a test's own (content/blog, content/legal) with the images it needs.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

const legal = (title: string) => `---\ntitle: ${title}\ndescription: d\nupdated: 2026-01-01\n---\nBody`;
/** The four legal pages the embedded content must have. */
export const LEGAL_FILES = Object.fromEntries(['cookies', 'legal', 'privacy', 'responsible'].map((p) => [`legal/${p}/es.md`, legal(p)]));

/** A post's Markdown with this extra front matter (`cover: x.png\ncoverAlt: …\n`) and body. */
export function post(frontMatter: string, body = 'Text'): string {
  return `---\ntitle: T\ndescription: d\ndate: 2026-02-01\nauthor: A\n${frontMatter}---\n${body}\n`;
}

/** A folder holding `files` (relative path → text or bytes), and the legal pages. */
export async function contentDir(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'content-'));
  for (const [path, data] of Object.entries({ ...LEGAL_FILES, ...files })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), data);
  }
  return dir;
}

/** An opaque JPEG photo of `width`×`height` pixels. */
export function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#30B7BB' } })
    .jpeg()
    .toBuffer();
}

/** An SVG of `width`×`height` with a transparent background (a figure). */
export function svg(width: number, height: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#1c2a2b"/></svg>`,
  );
}

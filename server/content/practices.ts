// The practices' own pages and the posts' authors in Markdown, read once at start like the posts
// (embedded.ts):
//   content/practices/<practice>/<locale>.md
//                      <practice> is one of digital | data | sustainability | compliance;
//                      front matter: title, description; optional: step1 … step6 ("title |
//                      text": how the work goes), engagement1 … engagement6 (typical
//                      engagements, one line each), caseStudy (the slug of the case study the
//                      page shows; else the first of the practice's); the body (Markdown) says
//                      what the practice is
//   content/authors/<slug>/<locale>.md
//                      front matter: name (as the posts give it in `author`), role; optional:
//                      photo (an image file in the folder); the body (Markdown) is the short bio
// A file that breaks these rules stops the start (and the build), naming the file and the field.
import { join } from 'node:path';
import { z } from 'zod';
import { foldText, SLUG_PATTERN } from '../../shared/blog.ts';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { Author, PracticeContent, PracticeStep, ResponsiveImage } from '../../shared/page-data.ts';
import { AUTHOR_LIMITS, isPractice, PRACTICE_LIMITS, PRACTICES } from '../../shared/practices.ts';
import { PARSE_ONCE } from '../base/parse-once.ts';
import { directories, numbered, pair, problems, readIfExists } from './fields.ts';
import { parseFrontMatter, type FrontMatter } from './front-matter.ts';
import { folderImages, type ContentImages, type FolderImages } from './images.ts';
import { IMAGE_FILE_NAME } from './image-manifest.ts';
import { markdownHtml, type Prerendered } from './prerendered.ts';
import type { ContentSource } from './source.ts';


const slug = z.string().regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens');
const practiceMeta = z.object({
  title: z.string().min(1).max(PRACTICE_LIMITS.title),
  description: z.string().min(1).max(PRACTICE_LIMITS.description),
  caseStudy: slug.optional(),
});
const authorMeta = z.object({
  name: z.string().min(1).max(AUTHOR_LIMITS.name),
  role: z.string().min(1).max(AUTHOR_LIMITS.role),
  photo: z.string().optional(),
});

/** Fields a file may have besides its numbered ones: a misspelt field is an error, not silence. */
function refuseUnknown(attributes: FrontMatter, known: readonly string[], numberedNames: readonly string[], file: string, what: string) {
  const unknown = Object.keys(attributes).filter(
    (key) => !known.includes(key) && !numberedNames.some((name) => new RegExp(`^${name}\\d+$`).test(key)),
  );
  if (unknown.length > 0) throw new Error(`${file}: ${unknown.join(', ')} is not a field of ${what} (${[...known, ...numberedNames.map((n) => `${n}1…`)].join(', ')})`);
}

function practiceSteps(attributes: FrontMatter, file: string): PracticeStep[] {
  const step = pair(PRACTICE_LIMITS.stepTitle, PRACTICE_LIMITS.stepText);
  return numbered(attributes, 'step', PRACTICE_LIMITS.steps, file).map((text, i) => {
    const parsed = step.safeParse(text, PARSE_ONCE);
    if (!parsed.success) throw new Error(`${file}: step${i + 1} must be "title | text" (at most ${PRACTICE_LIMITS.stepTitle} and ${PRACTICE_LIMITS.stepText} characters)`);
    const [title, stepText] = parsed.data;
    return { title, text: stepText };
  });
}

function engagements(attributes: FrontMatter, file: string): string[] {
  return numbered(attributes, 'engagement', PRACTICE_LIMITS.engagements, file).map((text, i) => {
    if (text.length === 0 || text.length > PRACTICE_LIMITS.engagement) {
      throw new Error(`${file}: engagement${i + 1} must be 1 to ${PRACTICE_LIMITS.engagement} characters`);
    }
    return text;
  });
}

async function loadPractices(contentDir: string, prerendered: Prerendered): Promise<Map<Locale, PracticeContent[]>> {
  const dir = join(contentDir, 'practices');
  const byLocale = new Map<Locale, PracticeContent[]>(LOCALE_CODES.map((locale) => [locale, []]));
  const folders = await directories(dir);
  const strangers = folders.filter((name) => !isPractice(name));
  if (strangers.length > 0) throw new Error(`content/practices/${strangers[0]}: not a practice (${PRACTICES.join(', ')})`);
  for (const practice of PRACTICES.filter((p) => folders.includes(p))) {
    for (const locale of LOCALE_CODES) {
      const file = join(dir, practice, `${locale}.md`);
      const source = await readIfExists(file);
      if (source === null) continue;
      const { attributes, body } = parseFrontMatter(source, file);
      refuseUnknown(attributes, ['title', 'description', 'caseStudy'], ['step', 'engagement'], file, 'a practice');
      const meta = practiceMeta.safeParse(attributes, PARSE_ONCE);
      if (!meta.success) throw new Error(`${file}: ${problems(meta.error)}`);
      byLocale.get(locale)!.push({
        practice,
        locale,
        title: meta.data.title,
        description: meta.data.description,
        html: await markdownHtml(body, prerendered),
        steps: practiceSteps(attributes, file),
        engagements: engagements(attributes, file),
        caseStudy: meta.data.caseStudy ?? null,
      });
    }
  }
  return byLocale;
}

/** An author's photo: an image file of the author's folder. */
async function photoOf(images: ContentImages, folder: FolderImages, file: string, name: string, alt: string): Promise<ResponsiveImage> {
  if (!IMAGE_FILE_NAME.test(name)) throw new Error(`${file}: photo ${name} must be an image file in ${folder.dir} (name.svg, .png, .jpg or .webp)`);
  const digest = folder.digests.get(name);
  if (digest === undefined) throw new Error(`${file}: photo ${name} not found (put it in ${folder.dir})`);
  if (digest === null) throw new Error(`${join(folder.dir, name)}: larger than an image may be`);
  return { ...(await images.image(join(folder.dir, name), digest)), alt };
}

async function loadAuthors(contentDir: string, prerendered: Prerendered, images: ContentImages): Promise<Map<Locale, Map<string, Author>>> {
  const dir = join(contentDir, 'authors');
  const byLocale = new Map<Locale, Map<string, Author>>(LOCALE_CODES.map((locale) => [locale, new Map()]));
  for (const folder of await directories(dir)) {
    if (!SLUG_PATTERN.test(folder)) throw new Error(`content/authors/${folder}: a folder's name is lower-case letters, digits and hyphens`);
    const inFolder = await folderImages(join(dir, folder));
    for (const locale of LOCALE_CODES) {
      const file = join(dir, folder, `${locale}.md`);
      const source = await readIfExists(file);
      if (source === null) continue;
      const { attributes, body } = parseFrontMatter(source, file);
      refuseUnknown(attributes, ['name', 'role', 'photo'], [], file, 'an author');
      const meta = authorMeta.safeParse(attributes, PARSE_ONCE);
      if (!meta.success) throw new Error(`${file}: ${problems(meta.error)}`);
      const { name, role, photo } = meta.data;
      const authors = byLocale.get(locale)!;
      if (authors.has(foldText(name))) throw new Error(`${file}: another ${locale} author is named ${name}`);
      const image = photo ? await photoOf(images, inFolder, file, photo, name) : null;
      authors.set(foldText(name), { name, role, html: await markdownHtml(body, prerendered), photo: image });
    }
  }
  return byLocale;
}

export type EmbeddedPractices = Pick<ContentSource, 'listPractices' | 'getAuthor'>;

/** content/practices/ and content/authors/ (both optional: without them a practice has no page, a post no author's box). */
export async function loadEmbeddedPractices(contentDir: string, prerendered: Prerendered, images: ContentImages): Promise<EmbeddedPractices> {
  const practices = await loadPractices(contentDir, prerendered);
  const authors = await loadAuthors(contentDir, prerendered, images);
  return {
    listPractices: async (locale) => practices.get(locale) ?? [],
    getAuthor: async (name, locale) => authors.get(locale)?.get(foldText(name)) ?? authors.get(defaultLocale)?.get(foldText(name)) ?? null,
  };
}

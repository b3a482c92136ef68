// The home page's content in Markdown, read once at start like the posts (embedded.ts):
//   content/home/<locale>.md      front matter: figure1 … figure6 ("value | label"),
//                                 logo1 … logo12 ("file.svg | Client name": a file in
//                                 content/home/; a language without logos shows the default
//                                 language's), sample (yes: the page says it is sample content)
//   content/case-studies/<slug>/<locale>.md
//                                 front matter: title, client, sector, practice (digital | data |
//                                 sustainability | compliance), quote, quoteBy, order (a number,
//                                 smallest first); optional: resultValue with resultLabel (the
//                                 headline result), challenge (the client's problem, the page's
//                                 opening), figure1 … figure4 (further results, "value | label"),
//                                 sample; the body (Markdown) is the story (how the work went)
// A file that breaks these rules stops the start (and the build), naming the file and the field.
import { join } from 'node:path';
import { z } from 'zod';
import { SLUG_PATTERN } from '../../shared/blog.ts';
import { HOME_LIMITS } from '../../shared/home.ts';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { CaseStudy, HomeContent, HomeFigure, ResponsiveImage } from '../../shared/page-data.ts';
import { PRACTICES } from '../../shared/practices.ts';
import { parseFrontMatter, type FrontMatter } from './front-matter.ts';
import { directories, numbered, pair, problems, readIfExists, sample } from './fields.ts';
import { IMAGE_FILE_NAME } from './image-manifest.ts';
import { folderImages, type ContentImages, type FolderImages } from './images.ts';
import { markdownHtml, type Prerendered } from './prerendered.ts';
import type { ContentSource } from './source.ts';
import { PARSE_ONCE } from '../base/parse-once.ts';

export type EmbeddedHome = Pick<ContentSource, 'getHome' | 'listCaseStudies'>;

const homeMeta = z.looseObject({ sample }).superRefine((meta, context) => {
  for (const key of Object.keys(meta)) {
    if (key !== 'sample' && !/^(figure|logo)[1-9]\d?$/.test(key)) {
      context.addIssue({ code: 'custom', path: [key], message: 'is not a field of the home page (sample, figure1…, logo1…)' });
    }
  }
});

const caseStudyMeta = z
  .object({
    title: z.string().min(1).max(HOME_LIMITS.title),
    client: z.string().min(1).max(HOME_LIMITS.client),
    sector: z.string().min(1).max(HOME_LIMITS.sector),
    practice: z.enum(PRACTICES),
    quote: z.string().min(1).max(HOME_LIMITS.quote),
    quoteBy: z.string().min(1).max(HOME_LIMITS.quoteBy),
    order: z.string().regex(/^\d{1,4}$/, 'must be a whole number').transform(Number),
    resultValue: z.string().min(1).max(HOME_LIMITS.figureValue).optional(),
    resultLabel: z.string().min(1).max(HOME_LIMITS.figureLabel).optional(),
    challenge: z.string().min(1).max(HOME_LIMITS.challenge).optional(),
    sample,
  })
  .refine((meta) => Boolean(meta.resultValue) === Boolean(meta.resultLabel), {
    path: ['resultLabel'],
    message: 'goes with resultValue (both or neither)',
  });

/** A logo file of content/home/, as the page shows it (its name is its `alt`). */
async function logoImage(images: ContentImages, folder: FolderImages, file: string, name: string, alt: string): Promise<ResponsiveImage> {
  if (!IMAGE_FILE_NAME.test(name)) throw new Error(`${file}: logo ${name} must be an image file in ${folder.dir} (name.svg, .png, .jpg or .webp)`);
  const digest = folder.digests.get(name);
  if (digest === undefined) throw new Error(`${file}: logo ${name} not found (put it in ${folder.dir})`);
  if (digest === null) throw new Error(`${join(folder.dir, name)}: larger than an image may be`);
  return { ...(await images.image(join(folder.dir, name), digest)), alt };
}

/** A case study's further results, `figure1` … (each "value | label"); any other unknown field is an error. */
function caseStudyFigures(attributes: FrontMatter, file: string): HomeFigure[] {
  const known = new Set(['title', 'client', 'sector', 'practice', 'quote', 'quoteBy', 'order', 'resultValue', 'resultLabel', 'challenge', 'sample']);
  const unknown = Object.keys(attributes).filter((key) => !known.has(key) && !/^figure\d+$/.test(key));
  if (unknown.length > 0) throw new Error(`${file}: ${unknown.join(', ')} is not a field of a case study`);
  const figure = pair(HOME_LIMITS.figureValue, HOME_LIMITS.figureLabel);
  return numbered(attributes, 'figure', HOME_LIMITS.caseStudyFigures, file).map((text, i) => {
    const parsed = figure.safeParse(text, PARSE_ONCE);
    if (!parsed.success) throw new Error(`${file}: figure${i + 1} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    const [value, label] = parsed.data;
    return { value, label };
  });
}

type HomeFile = { figures: HomeFigure[]; logos: ResponsiveImage[] | null; sample: boolean };

async function readHomeFile(dir: string, locale: Locale, images: ContentImages, folder: FolderImages): Promise<HomeFile | null> {
  const file = join(dir, `${locale}.md`);
  const source = await readIfExists(file);
  if (source === null) return null;
  const { attributes } = parseFrontMatter(source, file);
  const meta = homeMeta.safeParse(attributes, PARSE_ONCE);
  if (!meta.success) throw new Error(`${file}: ${problems(meta.error)}`);
  const figure = pair(HOME_LIMITS.figureValue, HOME_LIMITS.figureLabel);
  const figures = numbered(attributes, 'figure', HOME_LIMITS.figures, file).map((text, i) => {
    const parsed = figure.safeParse(text, PARSE_ONCE);
    if (!parsed.success) throw new Error(`${file}: figure${i + 1} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    const [value, label] = parsed.data;
    return { value, label };
  });
  const logo = pair(120, HOME_LIMITS.logoName);
  const logoLines = numbered(attributes, 'logo', HOME_LIMITS.logos, file);
  const logos = await Promise.all(
    logoLines.map(async (text, i) => {
      const parsed = logo.safeParse(text, PARSE_ONCE);
      if (!parsed.success) throw new Error(`${file}: logo${i + 1} must be "file.svg | Client name"`);
      const [name, alt] = parsed.data;
      return logoImage(images, folder, file, name, alt);
    }),
  );
  return { figures, logos: logoLines.length > 0 ? logos : null, sample: meta.data.sample };
}

/** content/home/ and content/case-studies/ (both optional: without them the home shows neither). */
export async function loadEmbeddedHome(contentDir: string, prerendered: Prerendered, images: ContentImages): Promise<EmbeddedHome> {
  const homeDir = join(contentDir, 'home');
  const folder = await folderImages(homeDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return { dir: homeDir, digests: new Map<string, string | null>(), context: '' };
    throw error;
  });
  const files = new Map<Locale, HomeFile>();
  for (const locale of LOCALE_CODES) {
    const read = await readHomeFile(homeDir, locale, images, folder);
    if (read) files.set(locale, read);
  }
  const homes = new Map<Locale, HomeContent>();
  for (const locale of LOCALE_CODES) {
    const own = files.get(locale) ?? files.get(defaultLocale);
    if (!own) continue;
    const logos = own.logos ?? files.get(defaultLocale)?.logos ?? [];
    homes.set(locale, { figures: own.figures, logos, sample: own.sample });
  }

  const studies = new Map<Locale, (CaseStudy & { order: number })[]>(LOCALE_CODES.map((locale) => [locale, []]));
  const studiesDir = join(contentDir, 'case-studies');
  for (const slug of await directories(studiesDir)) {
    if (!SLUG_PATTERN.test(slug)) throw new Error(`content/case-studies/${slug}: a slug is lower-case letters, digits and hyphens`);
    for (const locale of LOCALE_CODES) {
      const file = join(studiesDir, slug, `${locale}.md`);
      const source = await readIfExists(file);
      if (source === null) continue;
      const { attributes, body } = parseFrontMatter(source, file);
      const meta = caseStudyMeta.safeParse(attributes, PARSE_ONCE);
      if (!meta.success) throw new Error(`${file}: ${problems(meta.error)}`);
      const { resultValue, resultLabel, challenge, title, client, sector, practice, quote, quoteBy, order, sample: isSample } = meta.data;
      const result = resultValue && resultLabel ? { value: resultValue, label: resultLabel } : null;
      studies.get(locale)!.push({
        ...{ title, client, sector, practice, quote, quoteBy, order, sample: isSample },
        slug,
        locale,
        result,
        challenge: challenge ?? null,
        figures: caseStudyFigures(attributes, file),
        html: await markdownHtml(body, prerendered),
      });
    }
  }
  const lists = new Map<Locale, CaseStudy[]>();
  for (const [locale, list] of studies) {
    lists.set(
      locale,
      list.sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug)).map(({ order: _order, ...study }) => study),
    );
  }

  return {
    getHome: async (locale) => homes.get(locale) ?? null,
    listCaseStudies: async (locale) => lists.get(locale) ?? [],
  };
}

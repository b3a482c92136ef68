// The practices' own pages and the posts' authors from the CMS (uncached: server/cms/content.ts
// caches them, with the home page's content). A type the CMS does not have (404) is none of it,
// with one warning; an entry that does not fit is skipped with a warning, the rest are shown.
import type { Locale } from '../../shared/locales.ts';
import type { Author, PracticeContent } from '../../shared/page-data.ts';
import { PRACTICE_LIMITS, PRACTICES } from '../../shared/practices.ts';
import { foldText } from '../../shared/blog.ts';
import type { Logger } from '../base/logger.ts';
import type { StrapiClient } from './client.ts';
import { entryLocale, LIST_PAGE_SIZE, type EntryReader } from './entries.ts';
import { CmsError } from './errors.ts';
import { normalizeEntries } from './normalize.ts';
import { authorSchema, practiceEngagementSchema, practiceSchema, practiceStepSchema } from './schemas.ts';

export type PracticesFetchOptions = { client: StrapiClient; logger: Logger; entries: EntryReader };

export function createPracticesFetch({ client, logger, entries: reader }: PracticesFetchOptions) {
  const { validEntries, validItems, responsiveImage, toHtml } = reader;
  const missingTypes = new Set<string>();

  /** A list of a collection in a locale; a 404 (no such type in the CMS) is an empty list, warned about once. */
  async function readList(path: string, query: Record<string, string | number>): Promise<unknown> {
    try {
      return await client.get(path, { 'pagination[pageSize]': LIST_PAGE_SIZE, ...query }, { as: 'public' });
    } catch (error) {
      if (!(error instanceof CmsError && error.status === 404)) throw error;
      if (!missingTypes.has(path)) {
        missingTypes.add(path);
        logger.warn({ path }, `CMS ${path}: not found (404): the site shows none of it until the content type and its entries exist`);
      }
      return null;
    }
  }

  /** The practices written in the locale, in the order of PRACTICES; a practice given twice: the first. */
  async function fetchPractices(locale: Locale): Promise<PracticeContent[]> {
    // `*`: its components (steps, engagements), whichever the content model has.
    const body = await readList('/api/practices', { locale, populate: '*' });
    if (body === null) return [];
    const found = new Map<string, PracticeContent>();
    for (const entry of validEntries(practiceSchema, normalizeEntries(body), 'practice')) {
      if (entryLocale(entry, locale) !== locale) continue;
      if (found.has(entry.practice)) {
        logger.warn({ practice: entry.practice }, `CMS practice ${entry.practice} given twice in ${locale}: the first is shown`);
        continue;
      }
      found.set(entry.practice, {
        practice: entry.practice,
        locale,
        title: entry.title,
        description: entry.description,
        html: await toHtml(entry.body),
        steps: validItems(practiceStepSchema, entry.steps, `practice ${entry.practice} step`)
          .slice(0, PRACTICE_LIMITS.steps)
          .map(({ title, text }) => ({ title, text })),
        engagements: validItems(practiceEngagementSchema, entry.engagements, `practice ${entry.practice} engagement`)
          .slice(0, PRACTICE_LIMITS.engagements)
          .map(({ text }) => text),
        caseStudy: entry.caseStudy ?? null,
      });
    }
    return PRACTICES.flatMap((practice) => found.get(practice) ?? []);
  }

  /** The authors written in the locale, by their folded name (the first of a name wins). */
  async function fetchAuthors(locale: Locale): Promise<Map<string, Author>> {
    const body = await readList('/api/authors', { locale, populate: '*' });
    const authors = new Map<string, Author>();
    if (body === null) return authors;
    for (const entry of validEntries(authorSchema, normalizeEntries(body), 'author')) {
      if (entryLocale(entry, locale) !== locale || authors.has(foldText(entry.name))) continue;
      const photo = responsiveImage(entry.photo);
      authors.set(foldText(entry.name), {
        name: entry.name,
        role: entry.role,
        html: await toHtml(entry.bio),
        photo: photo ? { ...photo, alt: entry.name } : null,
      });
    }
    return authors;
  }

  return { fetchPractices, fetchAuthors };
}

// The home page's content from the CMS: its single type (figures, client logos) and the case
// studies. A type the CMS does not have (404) is no content, with one warning. The content model
// and the caching: server/cms/content.ts.
import type { z } from 'zod';
import { HOME_LIMITS } from '../../shared/home.ts';
import type { Locale } from '../../shared/locales.ts';
import type { CaseStudy, HomeContent, HomeFigure, ResponsiveImage } from '../../shared/page-data.ts';
import type { Logger } from '../base/logger.ts';
import type { StrapiClient } from './client.ts';
import { entryLocale, LIST_PAGE_SIZE, type EntryReader } from './entries.ts';
import { CmsError } from './errors.ts';
import { normalizeEntries } from './normalize.ts';
import { caseStudySchema, figureSchema, homeSchema, logoSchema } from './schemas.ts';

/** A logo without its own size (an SVG in some upload providers): room kept for this shape. */
const LOGO_FALLBACK_SIZE = { width: 240, height: 96 };

export type HomeFetchOptions = {
  client: StrapiClient;
  logger: Logger;
  entries: EntryReader;
  /** The language whose home the others fall back to: only its 404 is warned about. */
  defaultLocale: Locale;
};

/** The reads of the home page's types (uncached: server/cms/content.ts caches them). */
export function createHomeFetch({ client, logger, entries: reader, defaultLocale }: HomeFetchOptions) {
  const { validEntries, validItems, responsiveImage, toHtml } = reader;

  /** Types the CMS answered 404 for (not in its content model): warned about once. */
  const missingTypes = new Set<string>();

  /**
   * A read of a home-page type; a 404 (the type, or the single type's entry in this language, is
   * not there) is null, with one warning per type when nothing else will be shown instead.
   */
  async function readOptional(path: string, query: Record<string, string | number>, last: boolean): Promise<unknown> {
    try {
      return await client.get(path, query, { as: 'public' });
    } catch (error) {
      if (!(error instanceof CmsError && error.status === 404)) throw error;
      if (last && !missingTypes.has(path)) {
        missingTypes.add(path);
        logger.warn({ path }, `CMS ${path}: not found (404): the home page shows none of it until the content type and its entries exist`);
      }
      return null;
    }
  }

  function logoImage(logo: z.infer<typeof logoSchema>): ResponsiveImage | null {
    const image = responsiveImage(logo.logo);
    if (!image) {
      logger.warn({ name: logo.name }, `CMS home logo "${logo.name}" skipped: its image is missing or on a host the site does not show`);
      return null;
    }
    const sized = logo.logo?.width && logo.logo.height ? {} : LOGO_FALLBACK_SIZE;
    return { ...image, ...sized, alt: logo.name };
  }

  async function fetchHome(locale: Locale): Promise<HomeContent | null> {
    const query = { locale, 'populate[figures]': 'true', 'populate[logos][populate][0]': 'logo' };
    // A language without its home falls back to the default language's (withFallback): only that one's 404 is news.
    const body = await readOptional('/api/home', query, locale === defaultLocale);
    const entry = body === null ? undefined : validEntries(homeSchema, normalizeEntries(body), 'home')[0];
    if (!entry) return null;
    const figures: HomeFigure[] = validItems(figureSchema, entry.figures, 'home figure')
      .slice(0, HOME_LIMITS.figures)
      .map(({ value, label }) => ({ value, label }));
    const logos = validItems(logoSchema, entry.logos, 'home logo')
      .flatMap((logo) => logoImage(logo) ?? [])
      .slice(0, HOME_LIMITS.logos);
    return { figures, logos, sample: entry.sample ?? false };
  }

  async function fetchCaseStudies(locale: Locale): Promise<CaseStudy[]> {
    // Sorted here, not by the CMS: a content model without `order` still works.
    // `*`: the components of the type, whichever it has (a content model without `figures` still works).
    const query = { locale, 'pagination[pageSize]': LIST_PAGE_SIZE, populate: '*' };
    const body = await readOptional('/api/case-studies', query, true);
    if (body === null) return [];
    const entries = validEntries(caseStudySchema, normalizeEntries(body), 'case study')
      .filter((entry) => entryLocale(entry, locale) === locale)
      .sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) || a.slug.localeCompare(b.slug));
    return Promise.all(
      entries.map(async (entry) => ({
        slug: entry.slug,
        locale,
        title: entry.title,
        client: entry.client,
        sector: entry.sector,
        practice: entry.practice,
        result: entry.resultValue && entry.resultLabel ? { value: entry.resultValue, label: entry.resultLabel } : null,
        quote: entry.quote,
        quoteBy: entry.quoteBy,
        html: await toHtml(entry.story),
        sample: entry.sample ?? false,
        challenge: entry.challenge,
        figures: validItems(figureSchema, entry.figures, `case study ${entry.slug} figure`)
          .slice(0, HOME_LIMITS.caseStudyFigures)
          .map(({ value, label }) => ({ value, label })),
      })),
    );
  }

  return { fetchHome, fetchCaseStudies };
}

// The home page: the company, its practices, how the private area works, and the figures,
// client logos and case studies of the content source (content/home, or the CMS).
import { HOME_LIMITS } from '../../shared/home.ts';
import type { HomeData } from '../../shared/page-data.ts';
import type { PageLoader } from '../render/page-module.ts';

/**
 * The figures, logos and case studies are extras: when the source cannot give them (the CMS is
 * down, or its Public role may not read them: the source logged why) the page shows its other
 * sections.
 */
export const loader = (async ({ services: { content }, locale }) => {
  const [home, caseStudies] = await Promise.all([
    content.getHome(locale).catch(() => null),
    content.listCaseStudies(locale).catch(() => []),
  ]);
  return { data: { content: home, caseStudies: caseStudies.slice(0, HOME_LIMITS.caseStudies) } satisfies HomeData };
}) satisfies PageLoader;

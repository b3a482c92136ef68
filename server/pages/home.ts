// The home page: the company, its practices, how the private area works, and the figures,
// client logos and case studies of the content source (content/home, or the CMS).
import { HOME_LIMITS } from '../../shared/home.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

/**
 * The figures, logos and case studies do not decide the page: they stream when the source is
 * slow (server/render/streamed.ts), and when it cannot give them (the CMS is down, or its Public
 * role may not read them: the source logged why) the page shows its other sections.
 */
export const loader = (async ({ services: { content }, locale }) => ({
  data: {
    content: content.getHome(locale).catch(() => null),
    caseStudies: content
      .listCaseStudies(locale)
      .then((list) => list.slice(0, HOME_LIMITS.caseStudies))
      .catch(() => []),
  },
})) satisfies PageLoader<unknown, Uses>;

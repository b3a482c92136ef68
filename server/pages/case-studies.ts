// Every case study of the language, in their order (the home page shows the first three).
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

export const loader = (async ({ services: { content }, locale }) => ({
  data: { caseStudies: await content.listCaseStudies(locale) },
})) satisfies PageLoader<unknown, Uses>;

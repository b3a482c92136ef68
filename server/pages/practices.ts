// The practices: a card each (what it is in a sentence), leading to the practice's own page.
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

export const loader = (async ({ services: { content }, locale }) => ({
  data: { practices: await content.listPractices(locale) },
})) satisfies PageLoader<unknown, Uses>;

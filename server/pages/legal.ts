// The legal pages (cookies, legal, privacy, responsible): one document each, per language.
import { LEGAL_PAGES } from '../../shared/routes.ts';
import { notFound } from '../http/errors.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

export const loader = (async ({ services: { content }, locale, route }) => {
  const page = LEGAL_PAGES.find((p) => p === route.base);
  const document = page ? await content.getLegal(page, locale) : null;
  if (!document) throw notFound();
  return { data: { document }, meta: { title: document.title, description: document.description } };
}) satisfies PageLoader<unknown, Uses>;

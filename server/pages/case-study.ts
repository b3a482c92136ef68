// A case study's own page: the client, the challenge, how the work went, the results in figures,
// the client's words, and the practice it belongs to. One not written in this language is not found.
import { LOCALE_CODES } from '../../shared/locales.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';
import { notFound } from '../http/errors.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

export const loader = (async ({ services: { content }, locale, params }) => {
  const caseStudy = (await content.listCaseStudies(locale)).find((study) => study.slug === params.slug);
  if (!caseStudy) throw notFound();
  // Its practice's page, when that practice has one in this language.
  const practice = (await content.listPractices(locale)).find((p) => p.practice === caseStudy.practice) ?? null;
  const written = await Promise.all(
    LOCALE_CODES.map(async (other) =>
      other === locale || (await content.listCaseStudies(other)).some((study) => study.slug === caseStudy.slug) ? [other] : [],
    ),
  );
  const languages = written.flat();
  return {
    data: { caseStudy, practice: practice && { practice: practice.practice, title: practice.title }, languages },
    meta: {
      title: caseStudy.title,
      description: caseStudy.challenge ?? `${caseStudy.client} · ${caseStudy.sector}`,
      alternates: Object.fromEntries(languages.map((l) => [l, { slug: caseStudy.slug }])),
    },
  };
}) satisfies PageLoader<unknown, Uses>;

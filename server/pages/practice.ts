// A practice's own page: what it is, how the work goes, typical engagements, a case study of
// it, and the contact form with the practice chosen. A practice without its text in this
// language (or a word that is no practice) is not found.
import { LOCALE_CODES } from '../../shared/locales.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';
import { notFound } from '../http/errors.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content'>;

export const loader = (async ({ services: { content }, locale, params }) => {
  const practices = await content.listPractices(locale);
  const practice = practices.find((p) => p.practice === params.slug);
  if (!practice) throw notFound();
  // The case study it names, else its first; one the practice does not name may be another practice's.
  const studies = await content.listCaseStudies(locale).catch(() => []);
  const caseStudy =
    (practice.caseStudy ? studies.find((study) => study.slug === practice.caseStudy) : undefined) ??
    studies.find((study) => study.practice === practice.practice) ??
    null;
  const written = await Promise.all(
    LOCALE_CODES.map(async (other) =>
      other === locale || (await content.listPractices(other)).some((p) => p.practice === practice.practice) ? [other] : [],
    ),
  );
  const languages = written.flat();
  return {
    data: {
      practice,
      caseStudy,
      others: practices.filter((p) => p !== practice).map(({ practice: key, title }) => ({ practice: key, title })),
      languages,
    },
    meta: {
      title: practice.title,
      description: practice.description,
      alternates: Object.fromEntries(languages.map((l) => [l, { slug: practice.practice }])),
    },
  };
}) satisfies PageLoader<unknown, Uses>;

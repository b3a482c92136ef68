import { Link } from 'react-router-dom';
import type { CaseStudy } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { PracticeIcon } from './practices.tsx';

/**
 * A case study as a card (the home page, the list of case studies, a practice's page): its
 * practice, title (a link to its page), client, story, headline result and the client's words.
 * `level` is its heading's, under the section that lists it.
 */
export function CaseStudyCard({ study, level = 3 }: { study: CaseStudy; level?: 2 | 3 }) {
  const { t, locale } = useI18n();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <article className="case-study" aria-labelledby={`case-${study.slug}`}>
      <p className="case-practice">
        <PracticeIcon practice={study.practice} size={20} />
        {t(`home.services.items.${study.practice}.title`)}
      </p>
      <Heading id={`case-${study.slug}`} className="case-title">
        <Link to={localePath('case-study', locale, { slug: study.slug })}>{study.title}</Link>
      </Heading>
      <p className="case-client">{`${study.client} · ${study.sector}`}</p>
      <div className="case-story" dangerouslySetInnerHTML={{ __html: study.html }} />
      {study.result ? (
        <p className="case-result">
          <span className="visually-hidden">{`${t('home.results.result')}: `}</span>
          <span className="figure-value">{study.result.value}</span> <span>{study.result.label}</span>
        </p>
      ) : null}
      <figure className="case-quote">
        <blockquote>
          <p>{study.quote}</p>
        </blockquote>
        <figcaption>{study.quoteBy}</figcaption>
      </figure>
    </article>
  );
}

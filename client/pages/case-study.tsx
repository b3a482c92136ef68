import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { PracticeIcon, practiceContactPath, practicePagePath } from '../components/practices.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/case-study.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function CaseStudyPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { caseStudy: study, practice } = data;
  const results = [...(study.result ? [study.result] : []), ...study.figures];
  const practiceName = practice?.title ?? t(`home.services.items.${study.practice}.title`);
  return (
    <article className="container page case-study-page">
      <p>
        <Link to={localePath('case-studies', locale)}>← {t('caseStudies.all')}</Link>
      </p>
      <header>
        <p className="case-practice">
          <PracticeIcon practice={study.practice} size={20} />
          <span className="visually-hidden">{`${t('caseStudies.practice')}: `}</span>
          {practiceName}
        </p>
        <h1>{study.title}</h1>
        <p className="case-client">{`${study.client} · ${study.sector}`}</p>
        {study.sample ? <p className="sample-note">{t('home.sample')}</p> : null}
      </header>
      {study.challenge ? (
        <section aria-labelledby="case-challenge" className="prose">
          <h2 id="case-challenge">{t('caseStudies.challenge')}</h2>
          <p className="lead">{study.challenge}</p>
        </section>
      ) : null}
      <section aria-labelledby="case-approach" className="prose">
        <h2 id="case-approach">{t('caseStudies.approach')}</h2>
        {/* Sanitised on the server when the content was loaded (server/content/markdown.ts). */}
        <div dangerouslySetInnerHTML={{ __html: study.html }} />
      </section>
      {results.length > 0 ? (
        <section aria-labelledby="case-results">
          <h2 id="case-results">{t('caseStudies.results')}</h2>
          <ul className="figures">
            {results.map((figure) => (
              <li key={`${figure.value}|${figure.label}`} className="figure">
                <span className="figure-value">{figure.value}</span> <span className="figure-label">{figure.label}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <figure className="case-quote case-quote-page">
        <blockquote>
          <p>{study.quote}</p>
        </blockquote>
        <figcaption>{study.quoteBy}</figcaption>
      </figure>
      <p className="actions">
        {practice ? (
          <Link className="button button-secondary" to={practicePagePath(study.practice, locale)}>
            {t('caseStudies.practiceLink', { practice: practiceName })}
          </Link>
        ) : null}
        <Link className="button button-primary" to={practiceContactPath(study.practice, locale)}>
          {t('cta.contact')}
        </Link>
      </p>
    </article>
  );
}

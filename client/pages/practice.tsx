import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { CaseStudyCard } from '../components/case-study-card.tsx';
import { PracticeIcon, practiceContactPath, practicePagePath } from '../components/practices.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/practice.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function PracticePage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { practice, caseStudy, others } = data;
  return (
    <article className="container page practice-page">
      <p>
        <Link to={localePath('practices', locale)}>← {t('practices.all')}</Link>
      </p>
      <header className="practice-header">
        <span className="practice-badge">
          <PracticeIcon practice={practice.practice} size={28} />
        </span>
        <h1>{practice.title}</h1>
        <p className="lead">{practice.description}</p>
      </header>
      {/* Sanitised on the server when the content was loaded (server/content/markdown.ts). */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: practice.html }} />
      {practice.steps.length > 0 ? (
        <section aria-labelledby="practice-how">
          <h2 id="practice-how">{t('practices.how')}</h2>
          <ol className="steps practice-steps">
            {practice.steps.map((step) => (
              <li key={step.title} className="step">
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {practice.engagements.length > 0 ? (
        <section aria-labelledby="practice-engagements">
          <h2 id="practice-engagements">{t('practices.engagements')}</h2>
          <ul className="engagements">
            {practice.engagements.map((engagement) => (
              <li key={engagement}>{engagement}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {caseStudy ? (
        <section aria-labelledby="practice-case" className="practice-case">
          <h2 id="practice-case">{t('practices.caseStudy')}</h2>
          <CaseStudyCard study={caseStudy} />
        </section>
      ) : null}
      <section aria-labelledby="practice-contact" className="practice-contact">
        <h2 id="practice-contact">{t('practices.contactTitle')}</h2>
        <p>{t('practices.contactText', { practice: practice.title })}</p>
        <p>
          <Link className="button button-primary" to={practiceContactPath(practice.practice, locale)}>
            {t('cta.contact')}
          </Link>
        </p>
      </section>
      {others.length > 0 ? (
        <nav aria-labelledby="practice-others" className="practice-others">
          <h2 id="practice-others">{t('practices.others')}</h2>
          <ul>
            {others.map((other) => (
              <li key={other.practice}>
                <Link to={practicePagePath(other.practice, locale)}>
                  <PracticeIcon practice={other.practice} size={20} />
                  {other.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </article>
  );
}

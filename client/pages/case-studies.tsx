import { CaseStudyCard } from '../components/case-study-card.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/case-studies.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function CaseStudiesPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  const { caseStudies } = data;
  return (
    <div className="container page">
      <h1>{t('pages.case-studies.title')}</h1>
      <p className="section-lead">{t('caseStudies.lead')}</p>
      {caseStudies.some((study) => study.sample) ? <p className="sample-note">{t('home.sample')}</p> : null}
      {caseStudies.length === 0 ? (
        <p>{t('caseStudies.empty')}</p>
      ) : (
        <ul className="case-studies">
          {caseStudies.map((study) => (
            <li key={study.slug}>
              <CaseStudyCard study={study} level={2} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

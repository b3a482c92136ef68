import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { PracticeCard } from '../components/practices.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/practices.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function PracticesPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  return (
    <div className="container page">
      <h1>{t('pages.practices.title')}</h1>
      <p className="section-lead">{t('practices.lead')}</p>
      <ul className="cards practices">
        {data.practices.map((practice) => (
          <PracticeCard
            key={practice.practice}
            practice={practice.practice}
            title={practice.title}
            text={practice.description}
            more={t('home.services.more')}
            locale={locale}
            level={2}
          />
        ))}
      </ul>
      <p className="section-more">
        <Link to={localePath('case-studies', locale)}>{t('caseStudies.all')}</Link>
      </p>
    </div>
  );
}

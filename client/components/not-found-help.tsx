import { Link } from 'react-router-dom';
import { PRACTICES } from '../../shared/practices.ts';
import { localePath } from '../../shared/routes.ts';
import { BlogSearch } from './blog-search.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { PracticeIcon, practicePagePath } from './practices.tsx';

/** What the 404 page offers a visitor who got lost: the blog's search, the main pages, the practices. */
export function NotFoundHelp() {
  const { t, locale } = useI18n();
  return (
    <div className="not-found-help">
      <p className="not-found-lead">{t('errors.notFoundLead')}</p>
      <BlogSearch q="" />
      <nav aria-label={t('errors.notFoundLinks')}>
        <ul className="not-found-links">
          <li>
            <Link className="button button-primary" to={localePath('index', locale)}>
              {t('errors.backHome')}
            </Link>
          </li>
          <li>
            <Link className="button button-secondary" to={localePath('blog', locale)}>
              {t('errors.blogLink')}
            </Link>
          </li>
          <li>
            <Link className="button button-secondary" to={localePath('Contact', locale)}>
              {t('errors.contactLink')}
            </Link>
          </li>
        </ul>
        <h2 className="not-found-practices-title">{t('errors.practicesTitle')}</h2>
        <ul className="not-found-practices">
          {PRACTICES.map((practice) => (
            <li key={practice}>
              <Link to={practicePagePath(practice, locale)}>
                <PracticeIcon practice={practice} size={24} />
                {t(`home.services.items.${practice}.title`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

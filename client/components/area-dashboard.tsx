import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import type { SessionUser } from '../../shared/user.ts';
import { useI18n } from '../i18n.tsx';

/** The dashboard of a role area: who is signed in, what the role can do, where to go next. */
export function AreaDashboard({
  area,
  items,
  user,
}: {
  area: 'client' | 'organization' | 'expert';
  items: readonly string[];
  user: SessionUser | null;
}) {
  const { t, locale } = useI18n();
  return (
    <div className="container page">
      <h1>{t(`pages.${area}.title`)}</h1>
      {user && <p className="lead">{t('areas.welcome', { name: `${user.name} ${user.lastName}`.trim() })}</p>}
      <p className="section-lead">{t(`areas.${area}.lead`)}</p>
      <h2>{t('areas.toolsTitle')}</h2>
      <ul className="dashboard-grid">
        {items.map((item) => (
          <li key={item} className="card">
            <h3>{t(`areas.${area}.items.${item}.title`)}</h3>
            <p>{t(`areas.${area}.items.${item}.text`)}</p>
          </li>
        ))}
      </ul>
      <p className="actions">
        <Link className="button button-secondary" to={localePath('profile', locale)}>
          {t('areas.profileLink')}
        </Link>
        <Link className="button button-secondary" to={localePath('changePassword', locale)}>
          {t('areas.passwordLink')}
        </Link>
        <Link className="button button-secondary" to={localePath('Contact', locale)}>
          {t('footer.links.Contact')}
        </Link>
      </p>
    </div>
  );
}

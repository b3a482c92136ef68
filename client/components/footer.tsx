import { Link } from '../runtime/router.tsx';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../i18n.tsx';

const FOOTER_LINKS = ['legal', 'privacy', 'cookies', 'responsible', 'Contact'] as const;

export function Footer({ siteName, onCookieSettings }: { siteName: string; onCookieSettings: () => void }) {
  const { t, locale } = useI18n();
  return (
    <footer className="footer">
      <div className="footer-inner">
        <p className="footer-brand">
          © {siteName} · {t('footer.tagline')}
        </p>
        <nav aria-label={t('footer.label')}>
          <ul className="footer-links">
            {FOOTER_LINKS.map((base) => (
              <li key={base}>
                <Link to={localePath(base, locale)}>{t(`footer.links.${base}`)}</Link>
              </li>
            ))}
            <li>
              <button type="button" className="link-button footer-link-button" onClick={onCookieSettings}>
                {t('footer.cookieSettings')}
              </button>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}

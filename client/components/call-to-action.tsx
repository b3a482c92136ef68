import { Link } from 'react-router-dom';
import type { PageKey } from '../../shared/routes.ts';
import { localePath } from '../../shared/routes.ts';
import { roleArea, type SessionUser } from '../../shared/user.ts';
import { useI18n } from '../runtime/i18n.tsx';

/**
 * The public pages that end with the call to action (not the error pages, the forms of the private
 * area…; nor a practice's or a case study's page, which end with the contact form for their practice).
 */
const CTA_PAGES: ReadonlySet<PageKey> = new Set<PageKey>(['home', 'practices', 'case-studies', 'blog', 'blog-post', 'legal', 'contact']);

export function hasCallToAction(page: PageKey): boolean {
  return CTA_PAGES.has(page);
}

/**
 * The band under a public page's content: tell us about your project (the contact form), or go
 * to the private area. The contact page, which is that form, offers only the private area.
 */
export function CallToAction({ page, user }: { page: PageKey; user: SessionUser | null }) {
  const { t, locale } = useI18n();
  const onContact = page === 'contact';
  // Signed in, /login would bounce the user home: their area instead (a role with none: their
  // profile, the one private page every role has).
  const area = localePath(user ? (roleArea(user.role) ?? 'profile') : 'login', locale);
  return (
    <section className="cta-band" aria-labelledby="cta-title">
      <div className="container cta-inner">
        <div className="cta-text">
          <h2 id="cta-title">{t(onContact ? 'cta.contactPageTitle' : 'cta.title')}</h2>
          <p>{t(onContact ? 'cta.contactPageText' : 'cta.text')}</p>
        </div>
        <p className="actions">
          {onContact ? null : (
            <Link className="button button-primary" to={localePath('Contact', locale)}>
              {t('cta.contact')}
            </Link>
          )}
          <Link className={`button ${onContact ? 'button-primary' : 'button-secondary'}`} to={area}>
            {t(user ? 'cta.myArea' : 'cta.login')}
          </Link>
        </p>
      </div>
    </section>
  );
}

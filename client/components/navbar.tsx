import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { PagePayload } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { isSafeLogoSrc, type Branding } from '../../shared/branding.ts';
import { logoVariantOn, type PageBrand } from '../../shared/brand.ts';
import { roleArea, type SessionUser } from '../../shared/user.ts';
import { LocaleSwitcher } from './locale-switcher.tsx';
import { ThemeSwitch } from './theme-switch.tsx';
import { deferredComponent } from '../runtime/deferred.tsx';

// Only signed-in visitors see the user menu (and its logout dialog): its own chunk.
const UserMenu = deferredComponent(() => import('./user-menu.tsx').then((m) => m.UserMenu)).Deferred;

/**
 * The signed-in user's notifications (the page /notifications): a bell with the count of unread
 * ones, which the live stream keeps current (client/app.tsx). Outside the folded menu, so that
 * the count shows at every width.
 */
/**
 * The badge of the area's link: the project messages not read, and for an admin the new contact
 * messages (leads) too; one number on screen ("99+" past 99), each part said in words.
 */
function AreaBadge({ unread, leads }: { unread: number; leads: number }) {
  const { t } = useI18n();
  const total = unread + leads;
  if (total === 0) return null;
  const words = [
    unread > 99 ? t('projects.navUnreadMore', { count: 99 }) : unread > 0 ? t('projects.navUnread', { count: unread }) : null,
    leads > 99 ? t('nav.newLeadsMore', { count: 99 }) : leads > 0 ? t('nav.newLeads', { count: leads }) : null,
  ].filter((part) => part !== null);
  return (
    <span className="navbar-unread">
      <span aria-hidden="true">{total > 99 ? '99+' : total}</span>
      <span className="visually-hidden">{words.join(t('nav.badgeAnd'))}</span>
    </span>
  );
}

function NotificationBell({ count }: { count: number }) {
  const { t, locale } = useI18n();
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      className="navbar-bell"
      to={localePath('notifications', locale)}
      aria-label={count > 0 ? t('notifications.bellUnread', { count, shown }) : t('notifications.bell')}
      data-count={count}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M12 22a2.4 2.4 0 0 0 2.4-2.2H9.6A2.4 2.4 0 0 0 12 22Zm7.2-5.6V11a7.2 7.2 0 0 0-5.7-7V3.3a1.5 1.5 0 0 0-3 0V4a7.2 7.2 0 0 0-5.7 7v5.4L3 18.2v.9h18v-.9Z" />
      </svg>
      {count > 0 && (
        <span className="navbar-bell-count" aria-hidden="true">
          {shown}
        </span>
      )}
    </Link>
  );
}

/**
 * Teal bar with the logo, the Blog and Contact links, the locale switcher and the
 * Private Area entry, which for a signed-in user is the link to their own area (the only way to
 * it from the interface: /login would bounce them home). Under 1023 px the links fold behind a
 * burger button (a real <button> with aria-expanded), from 1087 px the wide layout.
 */
export function Navbar({
  payload,
  siteName,
  brand,
  user,
  branding,
  onSignedOut,
}: {
  payload: PagePayload;
  siteName: string;
  brand: PageBrand;
  user: SessionUser | null;
  branding: Branding | null;
  onSignedOut: () => void;
}) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();
  const area = user && roleArea(user.role);

  // A navigation closes the menu (state adjusted while rendering, not in an effect).
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      // Escape inside a dialog (the logout confirmation lives in the menu) is the dialog's.
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="navbar">
      <nav className="navbar-inner" aria-label={t('nav.label')}>
        <Link className="navbar-brand" to={localePath('index', locale)}>
          <img
            src={
              branding?.logo && isSafeLogoSrc(branding.logo)
                ? branding.logo
                : brand.logos[logoVariantOn(branding?.color ?? brand.colors.primary)]
            }
            alt=""
            width="36"
            height="36"
          />
          <span>{siteName}</span>
        </Link>
        {user && <NotificationBell count={payload.notifications ?? 0} />}
        <button
          type="button"
          className="navbar-burger"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="burger-icon" aria-hidden="true" />
          <span className="visually-hidden">{open ? t('nav.closeMenu') : t('nav.openMenu')}</span>
        </button>
        <ul id={menuId} className="navbar-menu" data-open={open}>
          <li>
            <Link to={localePath('practices', locale)}>{t('nav.practices')}</Link>
          </li>
          <li>
            <Link to={localePath('case-studies', locale)}>{t('nav.caseStudies')}</Link>
          </li>
          <li>
            <Link to={localePath('blog', locale)}>{t('nav.blog')}</Link>
          </li>
          <li>
            <Link to={localePath('Contact', locale)}>{t('nav.contact')}</Link>
          </li>
          <li>
            <LocaleSwitcher payload={payload} />
          </li>
          <li>
            <ThemeSwitch />
          </li>
          {area && (
            <li>
              <Link className="navbar-cta" to={localePath(area, locale)}>
                {t(`nav.area.${area}`)}
                <AreaBadge unread={payload.unread ?? 0} leads={payload.leads ?? 0} />
              </Link>
            </li>
          )}
          <li>
            {user ? (
              <UserMenu user={user} onSignedOut={onSignedOut} />
            ) : (
              <Link className="navbar-cta" to={localePath('login', locale)}>
                {t('nav.privateArea')}
              </Link>
            )}
          </li>
        </ul>
      </nav>
    </header>
  );
}

import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { localeHref } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import type { SessionUser } from '../../shared/user.ts';
import { avatarSrc, postForm } from '../runtime/forms.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { AlertDialog } from './alert-dialog.tsx';
import { useDisclosure } from '../runtime/use-disclosure.ts';

/**
 * The signed-in user's part of the navbar: the avatar (a default image when none) with the
 * first and last name is the button of a menu that holds My Profile and Log-Out. A native
 * disclosure (<details>/<summary>): a button with its expanded state for screen readers, Enter
 * and Space open it, and it works without JavaScript. With JavaScript it also closes on Escape
 * (focus back on its button), on a click outside it and on a navigation. Log-Out asks first.
 */
export function UserMenu({ user, onSignedOut }: { user: SessionUser; onSignedOut: () => void }) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const menu = useDisclosure();
  const logoutAction = localeHref('/logout', locale);

  // A navigation closes the menu (My Profile, or any link elsewhere on the page).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- on a new path only
  useEffect(() => menu.close(false), [pathname]);

  async function logout() {
    setConfirming(false);
    try {
      const answer = await postForm(logoutAction, new URLSearchParams());
      onSignedOut();
      navigate(answer.ok && answer.redirect ? answer.redirect : localePath('index', locale), { state: { revalidate: Date.now() } });
    } catch {
      // Offline or the server is gone: the plain form post is the fallback.
      window.location.assign(localePath('index', locale));
    }
  }

  return (
    <>
      <details className="navbar-user" {...menu.props}>
        <summary className="navbar-user-button" title={`${user.name} ${user.lastName}`}>
          <img src={avatarSrc(user.avatar)} alt="" width="32" height="32" />
          <span className="navbar-user-name">
            {user.name} {user.lastName}
          </span>
          <span className="disclosure-caret" aria-hidden="true" />
        </summary>
        <ul className="navbar-user-menu">
          <li>
            <Link to={localePath('profile', locale)}>{t('nav.myProfile')}</Link>
          </li>
          <li>
            <form
              method="post"
              action={logoutAction}
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                setConfirming(true);
              }}
            >
              <button type="submit" className="link-button">
                {t('nav.logout')}
              </button>
            </form>
          </li>
        </ul>
      </details>
      <AlertDialog
        open={confirming}
        title={t('logout.title')}
        confirmLabel={t('logout.confirm')}
        cancelLabel={t('logout.cancel')}
        onConfirm={() => void logout()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('logout.text')}</p>
      </AlertDialog>
    </>
  );
}

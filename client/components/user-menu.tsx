import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { localeHref } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import type { SessionUser } from '../../shared/user.ts';
import { avatarSrc, postForm } from '../runtime/forms.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { AlertDialog } from './alert-dialog.tsx';

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
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  const logoutAction = localeHref('/logout', locale);

  function close(focusButton: boolean) {
    const details = menu.current;
    if (!details?.open) return;
    details.open = false;
    if (focusButton) details.querySelector('summary')?.focus();
  }

  // A navigation closes the menu (My Profile, or any link elsewhere on the page).
  useEffect(() => close(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      // Not while the logout dialog is up: its clicks are outside the menu.
      if (!menu.current?.contains(event.target as Node) && !document.querySelector('dialog[open]')) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDetailsElement>) {
    // Escape inside the logout dialog is the dialog's; otherwise it closes this menu first (not the burger around it).
    if (event.key !== 'Escape' || !menu.current?.open || document.querySelector('dialog[open]')) return;
    event.stopPropagation();
    close(true);
  }

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
      <details ref={menu} className="navbar-user" onToggle={(event) => setOpen(event.currentTarget.open)} onKeyDown={onKeyDown}>
        <summary className="navbar-user-button" title={`${user.name} ${user.lastName}`}>
          <img src={avatarSrc(user.avatar)} alt="" width="32" height="32" />
          <span className="navbar-user-name">
            {user.name} {user.lastName}
          </span>
          <span className="navbar-user-caret" aria-hidden="true" />
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

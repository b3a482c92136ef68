import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { localeHref } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import type { SessionUser } from '../../shared/user.ts';
import { avatarSrc, postForm } from '../runtime/forms.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { AlertDialog } from './alert-dialog.tsx';

/** The signed-in user's part of the navbar: first name, last name, avatar (default image when none), My Profile, Log-Out. */
export function UserMenu({ user, onSignedOut }: { user: SessionUser; onSignedOut: () => void }) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const logoutAction = localeHref('/logout', locale);

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
    <div className="navbar-user">
      <img src={avatarSrc(user.avatar)} alt="" width="32" height="32" />
      <span className="navbar-user-name">
        {user.name} {user.lastName}
      </span>
      <Link to={localePath('profile', locale)}>{t('nav.myProfile')}</Link>
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
    </div>
  );
}

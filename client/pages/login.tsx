import { useLocation } from 'react-router-dom';
import { useI18n } from '../i18n.tsx';

export default function LoginPage() {
  const { t } = useI18n();
  const { pathname } = useLocation();
  return (
    <div className="container page narrow">
      <h1>{t('pages.login.title')}</h1>
      <p className="section-lead">{t('login.lead')}</p>
      <form className="form" method="post" action={pathname}>
        <div className="field">
          <label htmlFor="login-identifier">{t('login.identifier')}</label>
          <input id="login-identifier" name="identifier" type="text" autoComplete="username" required maxLength={254} />
        </div>
        <div className="field">
          <label htmlFor="login-password">{t('login.password')}</label>
          <input id="login-password" name="password" type="password" autoComplete="current-password" required maxLength={200} />
        </div>
        <button className="button button-primary" type="submit">
          {t('login.submit')}
        </button>
      </form>
    </div>
  );
}

import { useI18n } from '../i18n.tsx';

// The private area is built in the sign-in issue; until then the guards keep visitors out.
export default function ChangePasswordPage() {
  const { t } = useI18n();
  return (
    <div className="container page">
      <h1>{t('pages.changePassword.title')}</h1>
    </div>
  );
}

import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../i18n.tsx';

export default function ContactPage() {
  const { t, locale } = useI18n();
  const { pathname } = useLocation();
  return (
    <div className="container page narrow">
      <h1>{t('pages.contact.title')}</h1>
      <p className="section-lead">{t('contact.lead')}</p>
      <form className="form" method="post" action={pathname} noValidate={false}>
        <div className="field">
          <label htmlFor="contact-name">{t('contact.fields.name')}</label>
          <input id="contact-name" name="name" type="text" autoComplete="name" required maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor="contact-email">{t('contact.fields.email')}</label>
          <input id="contact-email" name="email" type="email" autoComplete="email" required maxLength={254} />
        </div>
        <div className="field">
          <label htmlFor="contact-subject">{t('contact.fields.subject')}</label>
          <input id="contact-subject" name="subject" type="text" required maxLength={150} />
        </div>
        <div className="field">
          <label htmlFor="contact-message">{t('contact.fields.message')}</label>
          <textarea id="contact-message" name="message" rows={7} required maxLength={5000} />
        </div>
        <div className="field field-check">
          <input id="contact-consent" name="consent" type="checkbox" value="yes" required />
          <label htmlFor="contact-consent">
            {t('contact.fields.consentBefore')} <Link to={localePath('privacy', locale)}>{t('contact.fields.consentLink')}</Link>
          </label>
        </div>
        <button className="button button-primary" type="submit">
          {t('contact.submit')}
        </button>
      </form>
    </div>
  );
}

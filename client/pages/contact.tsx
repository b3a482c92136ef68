import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { isPractice } from '../../shared/practices.ts';
import { CONTACT_LIMITS, contactProblems } from '../../shared/validation.ts';
import { FieldError, FormFeedback, fieldProps, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { ContactDetails } from '../components/contact-details.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/contact.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import { usePageForm } from '../runtime/use-page-form.ts';

const TEXT_FIELDS = [
  { name: 'name', type: 'text', autoComplete: 'name', required: true },
  { name: 'email', type: 'email', autoComplete: 'email', required: true },
  // Optional: "invite as client" in the admin's inbox fills it in.
  { name: 'company', type: 'text', autoComplete: 'organization', required: false },
  { name: 'subject', type: 'text', autoComplete: 'off', required: true },
] as const;

/**
 * The contact form, posted to this page's own URL; checked here first and again on the server; works
 * without JavaScript (POST, then 303 to the thank-you state) and with it without a reload.
 */
export default function ContactPage({ data, form, brand }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  const query = new URLSearchParams(search);
  const sent = query.get('sent') === '1';
  // A practice's link (`?practice=data`, from the home page and the 404 page) fills in the subject.
  const practice = query.get('practice');
  const subject = isPractice(practice) ? t('contact.practiceSubject', { practice: t(`projects.practices.${practice}`) }) : '';
  const { state, pending, onSubmit } = usePageForm('contact', form, {
    // The same rules as the server, checked first; a message sent opens the thank-you state.
    check: (body) => {
      const value = (key: string) => String(body.get(key) ?? '');
      const values = {
        name: value('name'),
        email: value('email'),
        company: value('company'),
        subject: value('subject'),
        message: value('message'),
      };
      const problems = contactProblems({ ...values, consent: body.get('consent') !== null });
      return Object.keys(problems).length > 0 ? { values, error: { code: 'invalid_request', message: '', fields: problems } } : null;
    },
    fallback: `${pathname}?sent=1`,
    replace: false,
  });
  const online = useOnline();

  if (sent && !state) {
    return (
      <div className="container page narrow">
        <h1>{t('pages.contact.title')}</h1>
        <p className="form-success" role="status">
          {t('contact.thanks')}
        </p>
        <p>
          <Link to={localePath('Contact', locale)}>{t('contact.another')}</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="container page narrow">
      <h1>{t('pages.contact.title')}</h1>
      <p className="section-lead">{t('contact.lead')}</p>
      <ContactDetails brand={brand} />
      <FormFeedback state={state} />
      <OfflineFormNote />
      <form className="form" method="post" action={pathname} onSubmit={onSubmit} noValidate aria-busy={pending}>
        <input type="hidden" name="formToken" value={data.formToken} />
        {/* Honeypot: hidden from people (and from assistive technology), filled by bots. */}
        <div className="honeypot" aria-hidden="true">
          <label htmlFor="contact-website">{t('contact.honeypot')}</label>
          <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        {TEXT_FIELDS.map((field) => (
          <TextField
            key={field.name}
            form="contact"
            state={state}
            name={field.name}
            label={t(`contact.fields.${field.name}`)}
            type={field.type}
            autoComplete={field.autoComplete}
            required={field.required}
            maxLength={CONTACT_LIMITS[field.name]}
            defaultValue={state?.values?.[field.name] ?? (field.name === 'subject' ? subject : '')}
          />
        ))}
        <div className="field">
          <label htmlFor="contact-message">{t('contact.fields.message')}</label>
          <textarea
            id="contact-message"
            name="message"
            rows={7}
            required
            minLength={10}
            maxLength={CONTACT_LIMITS.message}
            defaultValue={state?.values?.message ?? ''}
            {...fieldProps(state, 'message', 'contact-message')}
          />
          <FieldError state={state} field="message" id="contact-message" />
        </div>
        <div className="field field-check">
          <input
            id="contact-consent"
            name="consent"
            type="checkbox"
            value="yes"
            required
            {...fieldProps(state, 'consent', 'contact-consent')}
          />
          <label htmlFor="contact-consent">
            {t('contact.fields.consentBefore')} <Link to={localePath('privacy', locale)}>{t('contact.fields.consentLink')}</Link>
          </label>
          <FieldError state={state} field="consent" id="contact-consent" />
        </div>
        <p className="post-meta">{t('contact.privacyNote')}</p>
        <button className="button button-primary" type="submit" disabled={pending || !online}>
          {pending ? t('contact.sending') : t('contact.submit')}
        </button>
      </form>
    </div>
  );
}

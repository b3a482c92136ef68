// "Your calendar": the private address of the user's calendar feed (server/calendar-feed/feeds.ts),
// which a calendar app subscribes to — the milestones and deadlines of their projects. Made,
// renewed (the old address stops working) or stopped with forms posted to the profile, with or
// without JavaScript.
import type { CalendarFeedView, CalendarIntent } from '../../shared/calendar.ts';
import type { FormState } from '../../shared/page-data.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { FormFeedback } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import { usePageForm } from '../runtime/use-page-form.ts';
import { formatMoment } from './when.ts';

/** The address with the webcal scheme: https://… → webcal://… (calendar apps subscribe to it). */
export function webcalOf(url: string): string {
  return url.replace(/^https?:\/\//, 'webcal://');
}

export function CalendarSection({
  calendar,
  form,
  saved,
}: {
  calendar: CalendarFeedView | null;
  form: FormState | undefined;
  saved: string | null;
}) {
  const { t, locale } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('calendar', form);
  const online = useOnline();
  const success =
    saved && saved.startsWith('calendar') ? t(`account.calendar.saved.${saved}`, { defaultValue: '' }) || undefined : undefined;
  const button = (intent: CalendarIntent, label: string, kind: string) => (
    <form className="inline-form" method="post" action={action} noValidate onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={intent} />
      <button className={`button ${kind}`} type="submit" disabled={pending || !online}>
        {label}
      </button>
    </form>
  );
  return (
    <section aria-labelledby="calendar-title" className="account-section">
      <h2 id="calendar-title" tabIndex={-1}>
        {t('account.calendar.title')}
      </h2>
      <p className="section-lead">{t('account.calendar.lead')}</p>
      <FormFeedback state={state} successText={state ? undefined : success} fieldless />
      {calendar ? (
        <>
          <div className="field">
            <label htmlFor="calendar-url">{t('account.calendar.address')}</label>
            <input id="calendar-url" className="calendar-url" type="url" readOnly value={calendar.url} aria-describedby="calendar-hint" />
            <p id="calendar-hint" className="field-hint">
              {t('account.calendar.secret', { date: formatMoment(calendar.createdAt, locale) })}
            </p>
          </div>
          <p className="calendar-use">
            {/* webcal:// opens the address in the person's calendar app, subscribed (RFC 5545 feeds' de-facto scheme). */}
            <a className="button button-primary" href={webcalOf(calendar.url)}>
              {t('account.calendar.subscribe')}
            </a>
            <CopyButton text={calendar.url} label={t('account.calendar.copy')} copied={t('account.calendar.copied')} />
          </p>
          <div className="calendar-actions">
            {button('calendarRenew', t('account.calendar.renew'), 'button-secondary')}
            {button('calendarStop', t('account.calendar.stop'), 'button-danger')}
          </div>
        </>
      ) : (
        button('calendarCreate', t('account.calendar.create'), 'button-primary')
      )}
    </section>
  );
}

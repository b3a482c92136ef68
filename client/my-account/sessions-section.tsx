// The profile's list of the user's sessions: device, address, when each signed in and was last
// seen, this browser marked; any other one can be ended, or all the others at once (forms
// posted to the profile with an intent, with or without JavaScript). The most recently seen are
// listed (PAGE_SIZES.sessions); "sign out everywhere else" ends the others too.
import { deviceLabel, type SessionSummary } from '../../shared/account.ts';
import type { FormState } from '../../shared/page-data.ts';
import { FormFeedback } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import { useOnline } from '../runtime/online.ts';
import { formatMoment } from './when.ts';

export function SessionsSection({
  sessions,
  count,
  form,
  saved,
}: {
  sessions: SessionSummary[];
  /** How many live sessions the user has in all (more than are listed, at times). */
  count: number;
  form: FormState | undefined;
  saved: string | null;
}) {
  const { t, locale } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('sessions', form);
  const online = useOnline();
  const others = Math.max(count, sessions.length) - sessions.filter((s) => s.current).length;
  const success =
    saved === 'sessionEnded' ? t('account.sessions.ended') : saved === 'sessionsEnded' ? t('account.sessions.endedOthers') : undefined;

  return (
    <section aria-labelledby="sessions-title" className="account-section">
      <h2 id="sessions-title" tabIndex={-1}>
        {t('account.sessions.title')}
      </h2>
      <p className="section-lead">{t('account.sessions.lead')}</p>
      <FormFeedback state={state} successText={state ? undefined : success} fieldless />
      {count > sessions.length && <p className="field-hint">{t('account.sessions.shownOf', { shown: sessions.length, count })}</p>}
      <ul className="session-list" aria-busy={pending}>
        {sessions.map((s) => {
          const device = deviceLabel(t, s.device);
          return (
            <li key={s.ref} className={s.current ? 'session-item session-current' : 'session-item'}>
              <p className="session-device">
                <strong>{device}</strong>
                {s.current && <span className="badge badge-on">{t('account.sessions.thisDevice')}</span>}
              </p>
              <dl className="session-facts">
                <div>
                  <dt>{t('account.sessions.place')}</dt>
                  <dd>{s.ip ?? t('account.sessions.unknownPlace')}</dd>
                </div>
                <div>
                  <dt>{t('account.sessions.lastSeen')}</dt>
                  <dd>
                    <time dateTime={s.lastSeenAt}>{formatMoment(s.lastSeenAt, locale)}</time>
                  </dd>
                </div>
                <div>
                  <dt>{t('account.sessions.created')}</dt>
                  <dd>
                    <time dateTime={s.createdAt}>{formatMoment(s.createdAt, locale)}</time>
                  </dd>
                </div>
              </dl>
              {s.current ? (
                <p className="field-hint">{t('account.sessions.currentHint')}</p>
              ) : (
                <form className="inline-form" method="post" action={action} noValidate onSubmit={onSubmit}>
                  <input type="hidden" name="intent" value="endSession" />
                  <input type="hidden" name="session" value={s.ref} />
                  <button className="button button-secondary button-small" type="submit" disabled={pending || !online}>
                    {t('account.sessions.end')}
                    <span className="visually-hidden"> {t('account.sessions.endFor', { device, place: s.ip ?? '' })}</span>
                  </button>
                </form>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <form className="inline-form" method="post" action={action} noValidate onSubmit={onSubmit}>
          <input type="hidden" name="intent" value="endOtherSessions" />
          <button className="button button-primary" type="submit" disabled={pending || !online}>
            {t('account.sessions.endOthers', { count: others })}
          </button>
        </form>
      ) : (
        <p className="field-hint">{t('account.sessions.onlyThis')}</p>
      )}
    </section>
  );
}

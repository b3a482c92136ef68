import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Consent } from '../../shared/consent.ts';
import { localeHref } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';

/**
 * Accept / reject / settings, remembered for a year. The buttons are a real form
 * posted to /consent (so they work without JavaScript); with JavaScript the choice is sent in
 * the background, and when analytics were accepted and exist the page reloads once, because
 * only a new response carries the scripts and the CSP that allows their hosts.
 * With no analytics configured there is nothing to ask (docs/decisions/037): a notice (only necessary
 * cookies) and one "OK", posted and remembered like a choice.
 */
export function CookieBanner({
  analyticsConfigured,
  current,
  onDone,
}: {
  analyticsConfigured: boolean;
  current: Consent | null;
  onDone: (consent: Consent) => void;
}) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  const [settings, setSettings] = useState(current !== null);
  const [analytics, setAnalytics] = useState(current?.analytics ?? false);
  const titleId = useId();
  const action = localeHref('/consent', locale);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const choice = submitter?.value ?? 'custom';
    if (choice === 'settings') {
      setSettings(true);
      return;
    }
    const body = new URLSearchParams({ choice, analytics: analytics ? 'yes' : 'no', redirect: pathname + search });
    const response = await fetch(action, { method: 'POST', body, headers: { Accept: 'application/json' } }).catch(() => null);
    const answer = (await response?.json().catch(() => null)) as { ok?: boolean; analytics?: boolean } | null;
    if (!answer?.ok) return;
    const consent = { analytics: Boolean(answer.analytics) };
    onDone(consent);
    if (consent.analytics && analyticsConfigured && !current?.analytics) window.location.reload();
  }

  return (
    <section className="cookie-banner" aria-labelledby={titleId}>
      <form method="post" action={action} noValidate onSubmit={(event) => void onSubmit(event)}>
        <input type="hidden" name="redirect" value={pathname + search} />
        <h2 id={titleId}>{t('consent.title')}</h2>
        <p>
          {t(analyticsConfigured ? 'consent.textAnalytics' : 'consent.textNecessary')}{' '}
          <Link to={localePath('cookies', locale)}>{t('consent.policy')}</Link>
        </p>
        {analyticsConfigured && settings && (
          <fieldset className="cookie-settings">
            <legend>{t('consent.settingsTitle')}</legend>
            <label>
              <input type="checkbox" checked disabled /> {t('consent.necessary')}
            </label>
            <label>
              <input
                type="checkbox"
                name="analytics"
                value="yes"
                checked={analytics}
                onChange={(e) => setAnalytics(e.currentTarget.checked)}
              />{' '}
              {t('consent.analytics')}
            </label>
          </fieldset>
        )}
        <div className="cookie-actions">
          {analyticsConfigured ? (
            <>
              <button type="submit" name="choice" value="all" className="button button-primary button-small">
                {t('consent.acceptAll')}
              </button>
              <button type="submit" name="choice" value="necessary" className="button button-secondary button-small">
                {t('consent.reject')}
              </button>
              {settings ? (
                <button type="submit" name="choice" value="custom" className="button button-secondary button-small">
                  {t('consent.save')}
                </button>
              ) : (
                <button type="submit" name="choice" value="settings" className="button button-secondary button-small">
                  {t('consent.settings')}
                </button>
              )}
            </>
          ) : (
            // Nothing to ask: "OK" only says it was read (remembered apart: analytics added later ask).
            <button type="submit" name="choice" value="notice" className="button button-primary button-small">
              {t('consent.ok')}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

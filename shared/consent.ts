// Cookie consent: remembered for a year in a cookie the browser may read (it holds
// no secret). Analytics load only when configured and only after consent.

export const CONSENT_COOKIE = 'cookie_consent';
export const CONSENT_MAX_AGE_DAYS = 365;

/** `notice`: the "OK" of a site with no analytics (docs/decisions/037): read, but nothing was asked. */
export type Consent = { analytics: boolean; notice?: true };

/** `v1:analytics=1`, `v1:analytics=0` or `v1:notice`; anything else means no choice made yet. */
export function parseConsent(value: unknown): Consent | null {
  if (value === 'v1:notice') return { analytics: false, notice: true };
  if (typeof value !== 'string') return null;
  const match = /^v1:analytics=([01])$/.exec(value);
  return match ? { analytics: match[1] === '1' } : null;
}

export function serializeConsent(consent: Consent): string {
  return consent.notice ? 'v1:notice' : `v1:analytics=${consent.analytics ? '1' : '0'}`;
}

/** The choice that stands: a notice read is no answer once analytics are configured (they ask then). */
export function standingConsent(consent: Consent | null, analyticsConfigured: boolean): Consent | null {
  return consent?.notice && analyticsConfigured ? null : consent;
}

export type AnalyticsIds = { gtm?: string; ga?: string };

export const GTM_ID = /^GTM-[A-Z0-9]{4,10}$/;
export const GA_ID = /^G-[A-Z0-9]{4,12}$/;

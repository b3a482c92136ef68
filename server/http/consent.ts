// Cookie consent on the server: which analytics a response may load, the CSP hosts that
// follow from it, the scripts in the page, and POST /consent for browsers without JavaScript.
import express, { type RequestHandler } from 'express';
import { CONSENT_COOKIE, CONSENT_MAX_AGE_DAYS, serializeConsent, type AnalyticsIds, type Consent } from '../../shared/consent.ts';
import { localeHref, localeOf } from '../../shared/locales.ts';
import { safeRedirectPath } from '../../shared/safe-path.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    consent?: Consent | null;
  }
}

export const ANALYTICS_HOSTS = {
  script: ['https://www.googletagmanager.com'],
  connect: [
    'https://www.google-analytics.com',
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
    'https://www.googletagmanager.com',
  ],
  img: ['https://www.google-analytics.com', 'https://www.googletagmanager.com'],
};

export function analyticsAllowed(ids: AnalyticsIds, consent: Consent | null | undefined): boolean {
  return Boolean((ids.gtm || ids.ga) && consent?.analytics);
}

/** The analytics tags, with the request's nonce; only called when analyticsAllowed. */
export function analyticsTags(ids: AnalyticsIds, nonce: string): string {
  const tags: string[] = [];
  if (ids.ga) {
    tags.push(
      `<script async src="https://www.googletagmanager.com/gtag/js?id=${ids.ga}" nonce="${nonce}"></script>`,
      `<script nonce="${nonce}">window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','${ids.ga}',{anonymize_ip:true});</script>`,
    );
  }
  if (ids.gtm) {
    tags.push(
      `<script nonce="${nonce}">(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+(l!='dataLayer'?'&l='+l:'');j.setAttribute('nonce','${nonce}');f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','${ids.gtm}');</script>`,
    );
  }
  return tags.join('');
}

/** POST /consent (and /es/consent, /en/consent): the banner's buttons (`choice`: all, necessary, custom or notice), also without JavaScript. */
export function consentHandler(): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: '2kb' }),
    (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const analytics = body.choice === 'all' || (body.choice === 'custom' && body.analytics === 'yes');
      // "OK" of the notice (no analytics configured): remembered apart, so that analytics added later still ask.
      const consent: Consent = body.choice === 'notice' ? { analytics, notice: true } : { analytics };
      res.cookie(CONSENT_COOKIE, serializeConsent(consent), {
        maxAge: CONSENT_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
        sameSite: 'lax',
        secure: req.secure,
        httpOnly: false,
        path: '/',
      });
      const back = safeRedirectPath(body.redirect, localeHref('/', localeOf(req.path)));
      if (req.accepts(['html', 'json']) === 'json') res.json({ ok: true, analytics });
      else res.redirect(303, back);
    },
  ];
}

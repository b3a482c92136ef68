// What the answers' headers allow: the Content-Security-Policy helmet sends (http/csp.ts,
// docs/decisions/003 and 026) and the analytics the visitor may consent to.
import { ANALYTICS_HOSTS } from '../http/consent.ts';
import { contentSecurityPolicy } from '../http/csp.ts';
import type { Base } from './base.ts';

export function policyOf({ config, isProduction, mediaHosts }: Base) {
  const analyticsIds = {
    ...(config.ANALYTICS_GTM_ID ? { gtm: config.ANALYTICS_GTM_ID } : {}),
    ...(config.ANALYTICS_GA_ID ? { ga: config.ANALYTICS_GA_ID } : {}),
  };
  return {
    csp: contentSecurityPolicy({
      upgradeInsecureRequests: isProduction,
      analyticsHosts: ANALYTICS_HOSTS,
      mediaHosts,
      ...(config.CMS_URL ? { cmsOrigin: new URL(config.CMS_URL).origin } : {}),
    }),
    analyticsIds,
    // None configured: the cookie banner only informs.
    analyticsConfigured: Boolean(analyticsIds.gtm || analyticsIds.ga),
  };
}

export type Policy = ReturnType<typeof policyOf>;

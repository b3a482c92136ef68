// The Content-Security-Policy (docs/decisions/003): scripts only from us and only with the
// response's nonce, no inline styles but the nonce'd branding <style>, no framing. The policy
// differs between responses only by the nonce and by the analytics hosts (allowed once the
// visitor consented and the ids are configured), so both versions are written once at start
// and a response's header is its template with the nonce put in: no directive list is built
// per request (issue 7: nothing per request that can be done at start).
// Images may also come from the CMS's media hosts (CMS_MEDIA_HOSTS: an upload provider such as
// S3 or Cloudinary), each allowed as exactly `https://{host}`; the sanitiser and the CMS
// readers let through only images on those hosts (shared/media.ts), so the two lists agree.
export type AnalyticsHosts = { script: string[]; connect: string[]; img: string[] };

export type CspOptions = {
  /** Adds upgrade-insecure-requests (production is served over HTTPS). */
  upgradeInsecureRequests: boolean;
  analyticsHosts: AnalyticsHosts;
  /** CMS_MEDIA_HOSTS: host names whose https images pages may show. */
  mediaHosts?: readonly string[];
};

const NONCE = '\u0000nonce\u0000';

function policy(options: CspOptions, analytics: boolean): string {
  for (const host of options.mediaHosts ?? []) {
    // A host is written into the policy: nothing that could end a directive or add a source.
    if (!/^[a-z0-9.-]+$/.test(host)) throw new Error(`Not a media host name for the CSP: ${JSON.stringify(host)}`);
  }
  const hosts = (list: string[]) => (analytics ? list : []);
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", `'nonce-${NONCE}'`, ...hosts(options.analyticsHosts.script)],
    ['style-src', "'self'", `'nonce-${NONCE}'`],
    ['img-src', "'self'", 'data:', ...(options.mediaHosts ?? []).map((host) => `https://${host}`), ...hosts(options.analyticsHosts.img)],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...hosts(options.analyticsHosts.connect)],
    ['manifest-src', "'self'"],
    ['worker-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
    ...(options.upgradeInsecureRequests ? [['upgrade-insecure-requests'] as [string]] : []),
  ];
  return directives.map((directive) => directive.join(' ')).join(';');
}

/** `(nonce, analytics) → header value`, from the two templates made here. */
export function createCspHeader(options: CspOptions): (nonce: string, analytics: boolean) => string {
  const [without, withAnalytics] = [policy(options, false), policy(options, true)].map((text) => text.split(NONCE));
  return (nonce, analytics) => {
    if (!/^[A-Za-z0-9+/=_-]+$/.test(nonce)) throw new Error(`Not a CSP nonce: ${JSON.stringify(nonce)}`);
    return (analytics ? withAnalytics! : without!).join(nonce);
  };
}

/**
 * The policy of a preview response (server/preview/): the CMS's admin may frame it (Strapi's
 * preview pane), so `frame-ancestors 'none'` becomes exactly those origins; nothing else changes.
 */
export function withFrameAncestors(policy: string, origins: readonly string[]): string {
  for (const origin of origins) {
    // An origin is written into the policy: nothing that could end a directive or add a source.
    if (!/^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/.test(origin))
      throw new Error(`Not an origin for frame-ancestors: ${JSON.stringify(origin)}`);
  }
  const sources = origins.length > 0 ? origins.join(' ') : "'none'";
  return policy
    .split(';')
    .map((directive) => (directive.startsWith('frame-ancestors ') ? `frame-ancestors ${sources}` : directive))
    .join(';');
}

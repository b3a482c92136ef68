// The Content-Security-Policy (docs/decisions/003, 026): helmet builds and sends it; this file
// only says what goes in it. Scripts only from us and only with the response's nonce, no inline
// styles but the nonce'd branding <style>, no framing. Three things vary per response, each read
// by one of helmet's directive functions from res.locals, decided before helmet runs:
//   - the nonce (res.locals.cspNonce, request-context.ts);
//   - the analytics hosts, allowed once the visitor consented and the ids are configured
//     (res.locals.analytics, request-context.ts and consent.ts);
//   - frame-ancestors: the CMS's origin may frame a draft preview (res.locals.framedByCms,
//     server/preview/, which then has helmet set the header again); 'none' everywhere else.
// Images may also come from the CMS's media hosts (CMS_MEDIA_HOSTS: an upload provider such as
// S3 or Cloudinary), each allowed as exactly `https://{host}`; the sanitiser and the CMS
// readers let through only images on those hosts (shared/media.ts), so the two lists agree.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HelmetOptions } from 'helmet';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The CMS's admin may frame this response (a draft preview, server/preview/). */
    framedByCms?: boolean;
  }
}

export type AnalyticsHosts = { script: string[]; connect: string[]; img: string[] };

export type CspOptions = {
  /** Adds upgrade-insecure-requests (production is served over HTTPS). */
  upgradeInsecureRequests: boolean;
  analyticsHosts: AnalyticsHosts;
  /** CMS_MEDIA_HOSTS: host names whose https images pages may show. */
  mediaHosts?: readonly string[];
  /** The CMS's origin, which may frame the preview responses (and only those). */
  cmsOrigin?: string;
};

/** helmet's `contentSecurityPolicy` option. */
export type ContentSecurityPolicyOptions = Exclude<NonNullable<HelmetOptions['contentSecurityPolicy']>, boolean>;

// helmet hands its directive functions Node's request and response; Express's carry `locals`.
type Locals = { cspNonce?: string; analytics?: boolean; framedByCms?: boolean };
type DirectiveFunction = (req: IncomingMessage, res: ServerResponse) => string;
const localsOf = (res: ServerResponse): Locals => (res as ServerResponse & { locals?: Locals }).locals ?? {};

const NONCE = /^[A-Za-z0-9+/=_-]+$/;

/** `'nonce-…'` of the response. helmet refuses only `;` and `,`: a nonce must not add a source either. */
const nonceSource: DirectiveFunction = (_req, res) => {
  const nonce = localsOf(res).cspNonce;
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) throw new Error(`Not a CSP nonce: ${JSON.stringify(nonce)}`);
  return `'nonce-${nonce}'`;
};

/** A directive's sources, with the analytics hosts after them when this response may load analytics. */
function withAnalytics(sources: readonly string[], hosts: readonly string[]): DirectiveFunction {
  const without = sources.join(' ');
  const widened = [...sources, ...hosts].join(' ');
  return (_req, res) => (localsOf(res).analytics ? widened : without);
}

/** helmet's CSP options for this site: its defaults, each overridden to our policy (docs/decisions/026). */
export function contentSecurityPolicy(options: CspOptions): ContentSecurityPolicyOptions {
  const mediaHosts = options.mediaHosts ?? [];
  for (const host of mediaHosts) {
    // A host is written into the policy: nothing that could end a directive or add a source.
    if (!/^[a-z0-9.-]+$/.test(host)) throw new Error(`Not a media host name for the CSP: ${JSON.stringify(host)}`);
  }
  const { cmsOrigin } = options;
  // The origin is written into the policy likewise (server/preview/ frames with it).
  if (cmsOrigin !== undefined && !/^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(cmsOrigin))
    throw new Error(`Not an origin for frame-ancestors: ${JSON.stringify(cmsOrigin)}`);
  const hosts = options.analyticsHosts;
  const scriptHosts = hosts.script.join(' ');
  const scriptSources: DirectiveFunction = (req, res) =>
    localsOf(res).analytics && scriptHosts ? `${nonceSource(req, res)} ${scriptHosts}` : nonceSource(req, res);
  const frameAncestors: DirectiveFunction = (_req, res) => (cmsOrigin && localsOf(res).framedByCms ? cmsOrigin : "'none'");
  return {
    // helmet's defaults stay on (script-src-attr 'none' is one we keep); every other is set here.
    useDefaults: true,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", scriptSources],
      styleSrc: ["'self'", nonceSource],
      imgSrc: [withAnalytics(["'self'", 'data:', ...mediaHosts.map((host) => `https://${host}`)], hosts.img)],
      fontSrc: ["'self'"],
      connectSrc: [withAnalytics(["'self'"], hosts.connect)],
      manifestSrc: ["'self'"],
      workerSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: [frameAncestors],
      upgradeInsecureRequests: options.upgradeInsecureRequests ? [] : null,
    },
  };
}

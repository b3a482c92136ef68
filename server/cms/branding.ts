// Navbar branding from Strapi (docs/specification.md §13.2): one `{userName}-customs`
// collection per user, read server-side so the first paint is branded. The CMS is not trusted
// with CSS or URLs: only hex colours pass, and only logos among the CMS's own uploads (shown
// through the site's /cms proxy) or on its upload provider's hosts (CMS_MEDIA_HOSTS). Any
// failure means the default branding (null) and one warning; answers are cached per user,
// failures for a shorter time so that a CMS that is down is not asked on every page view.
import { isHexColor, type Branding } from '../../shared/branding.ts';
import type { Logger } from '../base/logger.ts';
import { createSingleFlight, createTtlCache } from '../base/cache.ts';
import type { StrapiClient } from './client.ts';
import { CmsError } from './errors.ts';
import { cmsMediaUrl, type CmsMediaOptions } from './media-url.ts';
import { normalizeEntries, type CmsEntry } from './normalize.ts';

export type { Branding };

export type StrapiBrandingOptions = {
  client: StrapiClient;
  /** The colour of a branding with a logo and no colour: the brand's primary (brand/brand.json), the navbar's default. */
  defaultColor: string;
  /** Origin whose absolute /uploads URLs are accepted; by default the client's. */
  cmsOrigin?: string;
  /** CMS_MEDIA_HOSTS: logos on these hosts are shown from there. */
  mediaHosts?: readonly string[];
  ttlMs?: number;
  /** How long a failure is remembered before the CMS is asked again. */
  failureTtlMs?: number;
  logger: Logger;
  now?: () => number;
};

export type StrapiBranding = {
  /** The user's branding, or null for the defaults. Never throws. */
  getBranding(userName: string): Promise<Branding | null>;
  /** The CMS changed a user's branding (every user's, without one): read it again next time. */
  forget(userName?: string): void;
};

// The user name becomes part of a URL path: nothing that could change the path gets through.
const USER_NAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

type Problem = { reason: string; detail: string; status?: number | null };
/** definitive: an answer about this user (kept ttlMs), as opposed to an outage (failureTtlMs). */
type Outcome = { branding: Branding | null; problem: Problem | null; definitive: boolean };

function isGiven(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

function firstMedia(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function readBranding(entry: CmsEntry, media: CmsMediaOptions, defaultColor: string): Outcome {
  const rawColor = entry.colorNavbar;
  const logoMedia = firstMedia(entry.logoNavbar);
  const rawLogo = typeof logoMedia === 'object' && logoMedia !== null && 'url' in logoMedia ? logoMedia.url : null;
  const color = isHexColor(rawColor) ? rawColor : null;
  const logo = cmsMediaUrl(rawLogo, media);
  const ignored = [
    ...(isGiven(rawColor) && !color ? ['colorNavbar (not a hex colour)'] : []),
    ...(isGiven(rawLogo) && !logo ? ['logoNavbar (neither an upload of the CMS nor on CMS_MEDIA_HOSTS)'] : []),
  ];
  return {
    branding: color || logo ? { color: color ?? defaultColor, logo } : null,
    problem: ignored.length > 0 ? { reason: 'unsafe', detail: `ignored ${ignored.join(', ')}` } : null,
    definitive: true,
  };
}

export function createStrapiBranding(options: StrapiBrandingOptions): StrapiBranding {
  const { client, logger } = options;
  const media = { cmsOrigin: options.cmsOrigin ?? client.origin, mediaHosts: options.mediaHosts ?? [] };
  const ttlMs = options.ttlMs ?? 60_000;
  const failureTtlMs = options.failureTtlMs ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = createTtlCache<Branding | null>({ now });
  const singleFlight = createSingleFlight<Branding | null>();

  async function fetchOutcome(userName: string): Promise<Outcome> {
    try {
      // Branding is not public: it is what the service account (or the API token) is for.
      const body = await client.get(`/api/${userName}-customs`, { populate: '*' }, { as: 'service' });
      const entry = normalizeEntries(body)[0];
      if (!entry) return { branding: null, problem: { reason: 'empty', detail: 'the answer has no entry' }, definitive: true };
      return readBranding(entry, media, options.defaultColor);
    } catch (error) {
      if (!(error instanceof CmsError)) {
        return {
          branding: null,
          problem: { reason: 'error', detail: error instanceof Error ? error.message : 'unknown' },
          definitive: false,
        };
      }
      // A missing collection is an answer (this user has no branding), not an outage.
      const definitive = error.reason === 'status' && error.status === 404;
      return { branding: null, problem: { reason: error.reason, detail: error.message, status: error.status }, definitive };
    }
  }

  async function load(userName: string): Promise<Branding | null> {
    const outcome = await fetchOutcome(userName);
    const { problem } = outcome;
    if (problem) {
      logger.warn(
        { userName, reason: problem.reason, status: problem.status },
        `CMS branding for ${userName} (${problem.reason}): ${problem.detail}; ${outcome.branding ? 'the valid values are used' : 'default branding used'}`,
      );
    }
    cache.set(userName, outcome.branding, outcome.definitive ? ttlMs : failureTtlMs);
    return outcome.branding;
  }

  return {
    async getBranding(userName) {
      const key = userName.toLowerCase();
      if (!USER_NAME.test(key)) return null;
      const cached = cache.get(key);
      if (cached?.fresh) return cached.value;
      return singleFlight(key, () => load(key));
    },
    forget(userName) {
      const key = userName?.toLowerCase();
      cache.expire((cached) => key === undefined || cached === key);
    },
  };
}

// The CMS as a domain of the site: when CMS_URL is set, the branding, the content and (with a
// preview secret and token) the drafts of a real Strapi; null otherwise. Images on the CMS's
// upload provider's hosts are shown (and allowed by the CSP) only then.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { ChangeFeed } from '../db/changes.ts';
import { createStrapiBranding } from './branding.ts';
import { cmsClientOptions, createStrapiClient } from './client.ts';
import { createStrapiContent } from './content.ts';
import { createStrapiDrafts } from './drafts.ts';
import { listenForCmsChanges } from './invalidation.ts';

export type CmsModuleDeps = { config: Config; logger: Logger; defaultColor: string };

export function cmsModule({ config, logger, defaultColor }: CmsModuleDeps) {
  if (!config.CMS_URL) return null;
  const mediaHosts = config.CMS_MEDIA_HOSTS;
  const ttlMs = config.CMS_CACHE_SECONDS * 1000;
  // Branding sits on the first paint: 1.5 s at most. Content may take a little longer.
  const branding = createStrapiBranding({
    client: createStrapiClient(cmsClientOptions(config, logger, 1500)),
    defaultColor,
    ttlMs,
    mediaHosts,
    logger,
  });
  const content = createStrapiContent({ client: createStrapiClient(cmsClientOptions(config, logger, 5000)), ttlMs, mediaHosts, logger });
  // The preview's drafts: their own token and client, never cached (server/cms/drafts.ts).
  const drafts =
    config.CMS_PREVIEW_SECRET && config.CMS_PREVIEW_TOKEN
      ? createStrapiDrafts({
          client: createStrapiClient({
            url: config.CMS_URL,
            timeoutMs: 5000,
            logger,
            token: config.CMS_PREVIEW_TOKEN,
            tokenName: 'CMS_PREVIEW_TOKEN',
          }),
          mediaHosts,
          logger,
        })
      : null;
  return {
    branding,
    content,
    drafts,
    /** What an editor publishes shows at once: the webhook is told to every instance, each of which makes its own CMS caches stale. */
    subscribe(changes: Pick<ChangeFeed, 'subscribe'>) {
      listenForCmsChanges(changes, { content, branding }, logger);
    },
  };
}

export type CmsModule = NonNullable<ReturnType<typeof cmsModule>>;

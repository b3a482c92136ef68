// A user's branding as the pages get it, whatever its source (the database, the CMS, a test's):
// sanitised (hex colours, logos only from allowed places), and never holding a page up — a
// source that fails or has not answered within the timeout means the default navbar (null) and
// one warning.
import { sanitizeBranding, type Branding } from '../../shared/branding.ts';
import type { Logger } from '../base/logger.ts';
import type { BrandingSource } from './embedded.ts';

/** Branding must never hold a page up: defaults after the timeout. */
export const BRANDING_TIMEOUT_MS = 1500;

export function withBrandingTimeout(
  source: BrandingSource,
  ms: number,
  logger: Logger,
  mediaHosts: readonly string[],
  defaultColor: string,
) {
  return async (userName: string): Promise<Branding | null> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        logger.warn({ userName, timeoutMs: ms }, 'branding timed out: default navbar');
        resolve(null);
      }, ms);
    });
    try {
      return await Promise.race([
        source.getBranding(userName).then(
          (found) => sanitizeBranding(found, defaultColor, mediaHosts),
          (error: unknown) => {
            logger.warn({ err: error, userName }, 'branding failed: default navbar');
            return null;
          },
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
}

// CMS media are shown through the site's own /cms proxy, so pages keep a CSP of 'self' and
// the browser never talks to the CMS. Only the CMS's own uploads qualify: a URL on any other
// host, another scheme (javascript:, data:) or a protocol-relative //host is refused.
import { isSafeLogoPath } from '../../shared/branding.ts';

/** Where the lead mounts createCmsProxy. */
export const CMS_PROXY_PREFIX = '/cms';

/** `/uploads/x.png` or `{cmsOrigin}/uploads/x.png` → `/cms/uploads/x.png`; anything else → null. */
export function proxiedMediaPath(value: unknown, cmsOrigin: string): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  const origin = new URL(cmsOrigin).origin;
  const relative = value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
  if (!relative && !value.toLowerCase().startsWith(`${origin.toLowerCase()}/`)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  // Checked after parsing: dot segments (also %2e) are resolved by then.
  if (url.origin !== origin || !url.pathname.startsWith('/uploads/')) return null;
  const path = `${CMS_PROXY_PREFIX}${url.pathname}`;
  return isSafeLogoPath(path) ? path : null;
}

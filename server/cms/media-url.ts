// CMS media the pages show. The CMS's own uploads (`/uploads/…`, relative or on its origin) go
// through the site's /cms proxy, so the browser never talks to the CMS. Media of an upload
// provider (S3, Cloudinary, Strapi Cloud: absolute URLs on another host) are shown from that
// host when it is one of CMS_MEDIA_HOSTS (the CSP's img-src allows exactly those). Anything
// else is refused: another host, another scheme (javascript:, data:, http:), a protocol-
// relative //host, credentials or a port.
import { isSafeLogoPath } from '../../shared/branding.ts';
import { mediaHostUrl } from '../../shared/media.ts';

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

export type CmsMediaOptions = {
  /** The CMS's origin, whose absolute /uploads URLs are its own. */
  cmsOrigin: string;
  /** CMS_MEDIA_HOSTS: hosts of the upload provider. */
  mediaHosts?: readonly string[];
};

/** A CMS media URL as the page shows it: its /cms proxy path, or the https URL on a media host; else null. */
export function cmsMediaUrl(value: unknown, { cmsOrigin, mediaHosts = [] }: CmsMediaOptions): string | null {
  return proxiedMediaPath(value, cmsOrigin) ?? mediaHostUrl(value, mediaHosts);
}

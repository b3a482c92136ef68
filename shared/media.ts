// Which image URLs a page may carry. Same-origin paths (our files, the /cms proxy), and https
// URLs on the media hosts of CMS_MEDIA_HOSTS: the hosts of a Strapi upload provider (S3,
// Cloudinary, Strapi Cloud), whose media URLs are absolute and on another host. The
// Content-Security-Policy's img-src lists exactly those hosts, so an image this lets through is
// one the browser will show, and one it refuses would have been blocked anyway.
// Anything else is refused: another host, http:, data:, javascript:, //host, /\host,
// credentials, a port, whitespace or quotes.

// What may follow the host: a path (and query) the URL parser has already percent-encoded.
const URL_REST = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;

/**
 * A path on our own origin: one leading slash (never `//` or `/\`), no whitespace or quotes,
 * no backslash even encoded (some servers and old browsers read it as a slash).
 */
export function isSameOriginPath(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 2048 && URL_REST.test(value) && !value.startsWith('//') && !/%5c/i.test(value);
}

/**
 * `value` as a normalised https URL (lower-case host, percent-encoded path) when it parses as
 * one with no credentials, no port and no fragment, on any host; else null.
 */
function httpsUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > 2048 || !/^https:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port || url.hash) return null;
  return URL_REST.test(`${url.pathname}${url.search}`) ? url : null;
}

/** An https image URL on one of `hosts` (exact host names, lower case), normalised; else null. */
export function mediaHostUrl(value: unknown, hosts: readonly string[]): string | null {
  const url = httpsUrl(value);
  return url && hosts.includes(url.hostname) ? url.href : null;
}

/**
 * An https URL on whatever host, as mediaHostUrl writes one (lower-case host, no user info or
 * port). For the browser, which does not know CMS_MEDIA_HOSTS: the server let only those hosts
 * through, and the CSP's img-src holds the browser to them. Only the scheme and the host matter
 * here (the rest goes into an escaped attribute), and the check is short: it is in the
 * first-load JavaScript.
 */
export function isHttpsMediaUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https:\/\/[a-z0-9.-]+\//.test(value);
}

/** An image src a page may carry: a same-origin path, or an https URL on `hosts` (normalised). */
export function allowedImageSrc(value: unknown, hosts: readonly string[]): string | null {
  if (isSameOriginPath(value)) return value;
  return mediaHostUrl(value, hosts);
}

// Navbar branding (on /client and /organization, per user). The CMS and the
// database are not trusted with CSS: only hex colours pass, only our own paths as logos (and,
// from the CMS, https logos on its upload provider's hosts, CMS_MEDIA_HOSTS).
import { isLocale } from './locales.ts';
import { isHttpsMediaUrl, mediaHostUrl } from './media.ts';
import { BRANDABLE_ROLES, roleArea, type Area } from './user.ts';

export type Branding = { color: string; logo: string | null };

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

/** The areas of the brandable roles: /client and /organization. */
const BRANDED_AREAS: ReadonlySet<string> = new Set(
  BRANDABLE_ROLES.map((role) => roleArea(role)).filter((area): area is Area => area !== undefined),
);

/**
 * Branding applies in the brandable roles' areas (/client and /organization) and on every page
 * of those areas, their project pages included.
 */
export function isBrandedPath(pathname: string): boolean {
  const segments = pathname.split('/').filter(Boolean);
  const area = isLocale(segments[0]) ? segments[1] : segments[0];
  return area !== undefined && BRANDED_AREAS.has(area);
}

/** A logo we may show: a same-origin path (our avatars or the /cms proxy), nothing else. */
export function isSafeLogoPath(value: unknown): value is string {
  return typeof value === 'string' && /^\/(?:cms|api\/branding-logos)\/[A-Za-z0-9/_.-]+$/.test(value) && !value.includes('..');
}

/**
 * A logo the navbar may show: our own path, or an https media URL. The browser does not know
 * CMS_MEDIA_HOSTS: the server let only those hosts through (sanitizeBranding), and the CSP's
 * img-src holds the browser to the same list.
 */
export function isSafeLogoSrc(value: unknown): value is string {
  return isSafeLogoPath(value) || isHttpsMediaUrl(value);
}

/** `#rgb` widened to `#rrggbb` (what colour inputs, PDFs and luminance need); `#rrggbb` as it is. */
export function sixDigitHex(hex: string): string {
  return hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
}

/** WCAG relative luminance of a hex colour (0 black … 1 white). */
export function relativeLuminance(hex: string): number {
  const full = sixDigitHex(hex);
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two hex colours (1 … 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Dark or white text, whichever reads better on the branding colour (WCAG luminance). */
export function readableTextColor(hex: string): string {
  const luminance = relativeLuminance(hex);
  // Contrast against #062326 (L≈0.014) versus white (L=1).
  return (luminance + 0.05) / (0.014 + 0.05) >= 1.05 / (luminance + 0.05) ? '#062326' : '#ffffff';
}

/** The CSS custom properties that paint the navbar in the branding colour. */
export function brandingCssVariables(branding: Branding | null | undefined): Record<string, string> | null {
  if (!branding || !isHexColor(branding.color)) return null;
  return { '--navbar-bg': branding.color, '--navbar-fg': readableTextColor(branding.color) };
}

/**
 * What may reach a page: a hex colour (else the default) and a logo (else none) that is a
 * same-origin path or an https URL on one of `mediaHosts` (CMS_MEDIA_HOSTS).
 */
export function sanitizeBranding(
  value: { color?: unknown; logo?: unknown } | null | undefined,
  defaultColor: string,
  mediaHosts: readonly string[] = [],
): Branding | null {
  if (!value) return null;
  const color = isHexColor(value.color) ? value.color : null;
  const logo = isSafeLogoPath(value.logo) ? value.logo : mediaHostUrl(value.logo, mediaHosts);
  return color || logo ? { color: color ?? defaultColor, logo } : null;
}

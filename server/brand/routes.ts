// What the brand serves: the logos (by digest, cached for a year), the favicon, and the web
// manifest of each language (/manifest.webmanifest, /es/…, /en/…), whose icons are the PNGs
// scripts/og-image.ts draws from the same logo.
import type { RequestHandler, Router } from 'express';
import { intlLocale, localeHref, type Locale } from '../../shared/locales.ts';
import { formOfPath, localeForms, localePath } from '../../shared/routes.ts';
import type { Brand } from './brand.ts';

export const MANIFEST_PATH = '/manifest.webmanifest';
export const FAVICON_PATH = '/favicon.svg';

/** The app icons (public/, drawn by scripts/og-image.ts): sizes are checked against the files by a test. */
export const APP_ICONS = [
  { src: '/logo-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/logo-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;

/** The manifest a page of `locale` links to. */
export function manifestPath(locale: Locale): string {
  return localeHref(MANIFEST_PATH, locale);
}

export type WebManifest = {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  dir: 'ltr';
  start_url: string;
  scope: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
};

/**
 * One installed app whatever the language it was installed from (the same `id`), which opens
 * on the home page of that language.
 */
export function webManifest(
  brand: Pick<Brand, 'tagline' | 'colors'>,
  site: { name: string; shortName: string },
  locale: Locale,
): WebManifest {
  return {
    id: '/',
    name: site.name,
    short_name: site.shortName,
    description: brand.tagline[locale],
    lang: intlLocale(locale),
    dir: 'ltr',
    start_url: localePath('index', locale),
    scope: '/',
    display: 'standalone',
    theme_color: brand.colors.primary,
    background_color: '#ffffff',
    icons: [...APP_ICONS, { src: FAVICON_PATH, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  };
}

/** The brand's files and the manifests, on `app` before the pages. */
export function mountBrand(app: Pick<Router, 'get'>, options: { brand: Brand; siteName: string; siteShortName: string }): void {
  const { brand } = options;
  const svg = (body: string, cacheControl: string): RequestHandler => {
    const bytes = Buffer.from(body);
    return (_req, res) => {
      res.set({ 'Content-Type': 'image/svg+xml', 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' }).send(bytes);
    };
  };
  // The URL changes with the file: a year, never revalidated.
  for (const [path, body] of brand.files) app.get(path, svg(body, 'public, max-age=31536000, immutable'));
  // A fixed URL (browsers ask for it on their own): an hour.
  app.get(FAVICON_PATH, svg(brand.favicon, 'public, max-age=3600'));

  const manifests = new Map<string, string>(
    localeForms(MANIFEST_PATH).map((path) => {
      const { locale } = formOfPath(path);
      return [path, JSON.stringify(webManifest(brand, { name: options.siteName, shortName: options.siteShortName }, locale))];
    }),
  );
  app.get([...manifests.keys()], (req, res) => {
    res
      .set({ 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600' })
      .send(manifests.get(req.path));
  });
}

// The service worker's server side: GET /sw.js (the compiled worker, read once at start, with
// this build's version, precache list and offline pages injected in front) and the offline
// fallback pages (/offline, /es/offline, /en/offline): small static documents, no scripts,
// shown by the worker when a page that is not stored on the device cannot be loaded. Their words:
// locales/<lng>/offline.json.
import { localeForms } from '../../shared/routes.ts';
import type { RequestHandler, Router } from 'express';
import type { i18n } from 'i18next';
import type esOffline from '../../locales/es/offline.json';
import { existsSync, readFileSync } from 'node:fs';
import type { SwConfig } from '../../client/sw/strategy.ts';
import { defaultLocale, LOCALE_CODES, localeHref, localeOf, type Locale } from '../../shared/locales.ts';
import { namespaceT, projectI18n } from '../i18n/index.ts';
import { escapeHtml } from '../http/html.ts';
import type { ClientManifest } from '../render/manifest.ts';
import type { Brand } from '../brand/brand.ts';
import { brandCssVariables } from '../brand/brand.ts';
import { FAVICON_PATH, manifestPath } from '../brand/routes.ts';
import { logoVariantOn } from '../../shared/brand.ts';

export const SERVICE_WORKER_PATH = '/sw.js';

/** Images of the shell (public/), precached so that stored pages and the offline page show them. */
export const SHELL_FILES = [FAVICON_PATH, '/avatar-default.svg'] as const;

/** What the worker needs of the brand: the logos' URLs (precached with the shell). */
export type SwBrand = Pick<Brand, 'page' | 'colors'>;

/** The offline page of each locale, in the locale's URL form (Spanish unprefixed). */
export const OFFLINE_PAGES: Record<Locale, string> = Object.fromEntries(
  LOCALE_CODES.map((locale) => [locale, localeHref('/offline', locale)]),
) as Record<Locale, string>;

/** Every path that answers an offline page, in the three forms of every route (unprefixed, /es, /en). */
export const OFFLINE_ROUTES = localeForms('/offline');

type Warn = { warn: (details: object, message: string) => void };

/**
 * What the worker stores on install: the entry with its imports and CSS, every page chunk with
 * its imports and CSS, each locale's messages, the shell's images and the offline pages.
 */
export function precacheUrls(manifest: ClientManifest, brand?: SwBrand): string[] {
  const chunks = [manifest.entry, ...Object.values(manifest.pages)];
  return [
    ...new Set([
      ...chunks.flatMap((chunk) => [chunk.file, ...chunk.imports, ...chunk.css]),
      ...Object.values(manifest.messages),
      // The fonts the pages preload: stored pages and the offline page keep their typeface.
      ...(manifest.fonts ?? []),
      ...SHELL_FILES,
      ...(brand ? Object.values(brand.page.logos) : []),
      ...Object.values(OFFLINE_PAGES),
    ]),
  ].filter((url) => url.startsWith('/') && !url.startsWith('//'));
}

export function serviceWorkerConfig(manifest: ClientManifest, brand?: SwBrand): SwConfig {
  return {
    // A new logo is a new shell: the brand's files are part of the version.
    version: brand ? `${manifest.buildId}-${brandVersion(brand)}` : manifest.buildId,
    precache: precacheUrls(manifest, brand),
    offline: { ...OFFLINE_PAGES },
    defaultLocale,
  };
}

/** A short digest of what the brand puts into the shell (the logos' URLs carry their own digests). */
function brandVersion(brand: SwBrand): string {
  const text = JSON.stringify([brand.page.logos, brand.colors]);
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return (hash >>> 0).toString(36);
}

/** The script served at /sw.js: the configuration, then the compiled worker. */
export function serviceWorkerScript(manifest: ClientManifest, workerCode: string, brand?: SwBrand): string {
  return `self.__SW_CONFIG__ = ${JSON.stringify(serviceWorkerConfig(manifest, brand))};\n${workerCode}`;
}

/**
 * GET /sw.js. The compiled worker is read once, here; a missing file (no build) answers 404,
 * and the browser keeps whatever worker it had.
 */
export function serviceWorkerHandler(options: {
  manifest: ClientManifest;
  workerFile: string;
  brand?: SwBrand;
  logger?: Warn;
}): RequestHandler {
  const code = existsSync(options.workerFile) ? readFileSync(options.workerFile, 'utf8') : null;
  if (code === null) options.logger?.warn({ workerFile: options.workerFile }, 'service worker not built: /sw.js answers 404');
  const body = code === null ? null : serviceWorkerScript(options.manifest, code, options.brand);
  return (_req, res) => {
    if (body === null) {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
      return;
    }
    res
      .status(200)
      .set({
        'Content-Type': 'text/javascript; charset=utf-8',
        // Browsers check for a new worker at every navigation: always revalidated, never stale.
        'Cache-Control': 'no-cache',
        'Service-Worker-Allowed': '/',
      })
      .send(body);
  };
}

const NONCE = '\u0000nonce\u0000';

/** The brand's colours over the stylesheet's defaults, as the pages have them. */
function offlineStyle(brand: SwBrand): string {
  return `:root{${Object.entries(brandCssVariables(brand))
    .map(([name, value]) => `${name}:${value}`)
    .join(';')}}`;
}

/**
 * The offline fallback document: no scripts (nothing to run offline), the site's stylesheet,
 * the brand's logo and colours (a <style> with the response's nonce: the worker stores the
 * document with its headers, so the two stay together). `nonce`: a placeholder by default.
 */
export function offlinePage(manifest: ClientManifest, locale: Locale, siteName: string, brand: SwBrand, i18n: i18n, nonce = NONCE): string {
  const t = namespaceT<typeof esOffline>(i18n, locale, 'offline');
  const home = localeHref('/', locale);
  return standalonePage({
    manifest,
    locale,
    siteName,
    brand,
    nonce,
    title: t('title'),
    html: [
      `<p>${escapeHtml(t('message'))}</p>`,
      // An empty href is the current URL: once shown in place of a page, it loads that page again.
      `<p><a class="button button-primary" href="">${escapeHtml(t('retry'))}</a></p>`,
      `<p><a href="${home}">${escapeHtml(t('home'))}</a></p>`,
    ].join(''),
  });
}

/**
 * A page of its own, outside the app (the offline page, an unsubscribe link's page): no scripts,
 * the site's stylesheet, the brand's logo and colours (a <style> with the response's nonce), a
 * heading and the given HTML (escaped by the caller).
 */
export function standalonePage(options: {
  manifest: ClientManifest;
  locale: Locale;
  siteName: string;
  brand: SwBrand;
  nonce: string;
  title: string;
  html: string;
}): string {
  const { manifest, locale, brand, nonce } = options;
  const home = localeHref('/', locale);
  const name = escapeHtml(options.siteName);
  return [
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(options.title)} · ${name}</title>`,
    `<meta name="theme-color" content="${escapeHtml(brand.colors.primary)}">`,
    `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`,
    `<link rel="manifest" href="${manifestPath(locale)}">`,
    ...manifest.entry.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `<style nonce="${nonce}">${offlineStyle(brand)}</style>`,
    '</head><body><div class="layout">',
    `<header class="navbar"><div class="navbar-inner"><a class="navbar-brand" href="${home}">`,
    `<img src="${escapeHtml(brand.page.logos[logoVariantOn(brand.colors.primary)])}" alt="" width="36" height="36"><span>${name}</span></a></div></header>`,
    '<main id="main" class="main"><section class="error-page" aria-labelledby="page-title">',
    `<h1 id="page-title">${escapeHtml(options.title)}</h1>`,
    options.html,
    '</section></main></div></body></html>',
  ].join('');
}

/** GET /offline, /es/offline, /en/offline: the offline page of the path's locale. */
export function offlineHandler(manifest: ClientManifest, siteName: string, brand: SwBrand, i18n: i18n): RequestHandler {
  // Made once, split where the response's nonce goes.
  const pages = Object.fromEntries(
    LOCALE_CODES.map((locale) => [locale, offlinePage(manifest, locale, siteName, brand, i18n).split(NONCE)]),
  ) as Record<Locale, string[]>;
  return (req, res) => {
    const locale = localeOf(req.path);
    res
      .status(200)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Robots-Tag': 'noindex' })
      .send(pages[locale].join(String(res.locals.cspNonce ?? '')));
  };
}

/** Both, mounted on `app` before the pages: `mountServiceWorker(app, { ... })` (two GET routes, no sub-router). */
export function mountServiceWorker(
  app: Pick<Router, 'get'>,
  options: {
    manifest: ClientManifest;
    workerFile: string;
    siteName: string;
    brand: SwBrand;
    logger?: Warn;
    /** The server's i18next instance, whose `offline` namespace words the offline pages; by default the project's. */
    i18n?: i18n;
  },
): void {
  app.get(SERVICE_WORKER_PATH, serviceWorkerHandler(options));
  app.get(OFFLINE_ROUTES, offlineHandler(options.manifest, options.siteName, options.brand, options.i18n ?? projectI18n()));
}

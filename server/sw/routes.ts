// The service worker's server side: GET /sw.js (the compiled worker, read once at start, with
// this build's version, precache list and offline pages injected in front) and the offline
// fallback pages (/offline, /es/offline, /en/offline): small static documents, no scripts,
// shown by the worker when a page that is not stored on the device cannot be loaded.
import { localeForms } from '../../shared/routes.ts';
import type { RequestHandler, Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import type { SwConfig } from '../../client/sw/strategy.ts';
import { DEFAULT_LOCALE } from '../../shared/constants.ts';
import { isLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { escapeHtml } from '../render/html.ts';
import type { ClientManifest } from '../render/manifest.ts';

export const SERVICE_WORKER_PATH = '/sw.js';

/** Images of the shell (public/), precached so that stored pages and the offline page show them. */
export const SHELL_FILES = ['/logo.svg', '/favicon.svg', '/avatar-default.svg'] as const;

/** The offline page of each locale, in the locale's URL form (Spanish unprefixed). */
export const OFFLINE_PAGES: Record<Locale, string> = Object.fromEntries(
  LOCALE_CODES.map((locale) => [locale, locale === DEFAULT_LOCALE ? '/offline' : `/${locale}/offline`]),
) as Record<Locale, string>;

/** Every path that answers an offline page: the three forms of seed-spec §2. */
export const OFFLINE_ROUTES = localeForms('/offline');

type Warn = { warn: (details: object, message: string) => void };

/**
 * What the worker stores on install: the entry with its imports and CSS, every page chunk with
 * its imports and CSS, each locale's messages, the shell's images and the offline pages.
 */
export function precacheUrls(manifest: ClientManifest): string[] {
  const chunks = [manifest.entry, ...Object.values(manifest.pages)];
  return [
    ...new Set([
      ...chunks.flatMap((chunk) => [chunk.file, ...chunk.imports, ...chunk.css]),
      ...Object.values(manifest.messages),
      ...SHELL_FILES,
      ...Object.values(OFFLINE_PAGES),
    ]),
  ].filter((url) => url.startsWith('/') && !url.startsWith('//'));
}

export function serviceWorkerConfig(manifest: ClientManifest): SwConfig {
  return { version: manifest.buildId, precache: precacheUrls(manifest), offline: { ...OFFLINE_PAGES }, defaultLocale: DEFAULT_LOCALE };
}

/** The script served at /sw.js: the configuration, then the compiled worker. */
export function serviceWorkerScript(manifest: ClientManifest, workerCode: string): string {
  return `self.__SW_CONFIG__ = ${JSON.stringify(serviceWorkerConfig(manifest))};\n${workerCode}`;
}

/**
 * GET /sw.js. The compiled worker is read once, here; a missing file (no build) answers 404,
 * and the browser keeps whatever worker it had.
 */
export function serviceWorkerHandler(options: { manifest: ClientManifest; workerFile: string; logger?: Warn }): RequestHandler {
  const code = existsSync(options.workerFile) ? readFileSync(options.workerFile, 'utf8') : null;
  if (code === null) options.logger?.warn({ workerFile: options.workerFile }, 'service worker not built: /sw.js answers 404');
  const body = code === null ? null : serviceWorkerScript(options.manifest, code);
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

const TEXTS: Record<Locale, { title: string; message: string; retry: string; home: string }> = {
  es: {
    title: 'Sin conexión',
    message:
      'No tienes conexión a internet. Esta página no está guardada en este dispositivo. Vuelve a intentarlo cuando recuperes la conexión.',
    retry: 'Reintentar',
    home: 'Ir a la página de inicio',
  },
  en: {
    title: 'You are offline',
    message: 'You have no internet connection. This page is not saved on this device. Try again when you are back online.',
    retry: 'Try again',
    home: 'Go to the home page',
  },
};

/** The offline fallback document: no scripts (nothing to run offline), the site's stylesheet. */
export function offlinePage(manifest: ClientManifest, locale: Locale, siteName: string): string {
  const texts = TEXTS[locale];
  const home = locale === DEFAULT_LOCALE ? '/' : `/${locale}`;
  const name = escapeHtml(siteName);
  return [
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(texts.title)} · ${name}</title>`,
    '<meta name="theme-color" content="#30B7BB">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ...manifest.entry.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    '</head><body><div class="layout">',
    `<header class="navbar"><div class="navbar-inner"><a class="navbar-brand" href="${home}">`,
    `<img src="/logo.svg" alt="" width="36" height="36"><span>${name}</span></a></div></header>`,
    '<main id="main" class="main"><section class="error-page" aria-labelledby="offline-title">',
    `<h1 id="offline-title">${escapeHtml(texts.title)}</h1>`,
    `<p>${escapeHtml(texts.message)}</p>`,
    // An empty href is the current URL: once shown in place of a page, it loads that page again.
    `<p><a class="button button-primary" href="">${escapeHtml(texts.retry)}</a></p>`,
    `<p><a href="${home}">${escapeHtml(texts.home)}</a></p>`,
    '</section></main></div></body></html>',
  ].join('');
}

/** GET /offline, /es/offline, /en/offline: the offline page of the path's locale. */
export function offlineHandler(manifest: ClientManifest, siteName: string): RequestHandler {
  const pages = Object.fromEntries(LOCALE_CODES.map((locale) => [locale, offlinePage(manifest, locale, siteName)])) as Record<
    Locale,
    string
  >;
  return (req, res) => {
    const prefix = req.path.split('/')[1] ?? '';
    const locale: Locale = isLocale(prefix) ? prefix : DEFAULT_LOCALE;
    res
      .status(200)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Robots-Tag': 'noindex' })
      .send(pages[locale]);
  };
}

/** Both, mounted on `app` before the pages: `mountServiceWorker(app, { ... })` (two GET routes, no sub-router). */
export function mountServiceWorker(
  app: Pick<Router, 'get'>,
  options: { manifest: ClientManifest; workerFile: string; siteName: string; logger?: Warn },
): void {
  app.get(SERVICE_WORKER_PATH, serviceWorkerHandler(options));
  app.get(OFFLINE_ROUTES, offlineHandler(options.manifest, options.siteName));
}

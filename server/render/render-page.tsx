// Streaming server rendering: the status and headers are decided before the first byte (the
// page was matched, guarded and loaded by resolvePage), then the document shell is written
// around React's stream. Every script carries the request's CSP nonce.
import type { Response } from 'express';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { Writable } from 'node:stream';
import { brandingCssVariables } from '../../shared/branding.ts';
import { brandCssVariables, type Brand } from '../brand/brand.ts';
import { FAVICON_PATH, manifestPath } from '../brand/routes.ts';
import { lastResortTexts } from '../../shared/last-resort.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import type { Theme } from '../../shared/theme.ts';
import type { Locale } from '../../shared/locales.ts';
import type { Messages, Translate } from '../../shared/translate.ts';
import { App } from '../../client/app.tsx';
import { preloadDeferred } from '../../client/runtime/deferred.tsx';
import { BOOT_ELEMENT_ID, type BootData, type PageBoot } from '../../client/boot.ts';
import { BRANDING_STYLE_ID } from '../../client/runtime/branding.ts';
import { loadPage } from '../../client/runtime/page-chunks.ts';
import { escapeHtml, jsonForScript } from '../http/html.ts';
import { fontPreloadsFor, preloadsFor, stylesheetsFor, type ClientManifest } from './manifest.ts';
import { renderKey, type RenderCache } from './render-cache.ts';
import { resolvedData, streamedFields } from './streamed.ts';

export type RenderOptions = {
  manifest: ClientManifest;
  siteName: string;
  /** The company's identity (server/brand/): logo, contact details, colours. */
  brand: Pick<Brand, 'page' | 'colors'>;
  nonce: string;
  messages: Messages;
  /** A digest of those messages, made at start (the render cache's key uses it instead of the messages). */
  messagesDigest?: string;
  messageUrls: BootData['messageUrls'];
  consent: BootData['consent'];
  localeCookie: boolean;
  /** Extra tags for <head> (the analytics, after consent). */
  headExtra?: string;
  /** Reuses React's markup for boot data already rendered (render-cache.ts). */
  renderCache?: RenderCache;
  /** The page's schema.org JSON-LD (server/seo/json-ld.ts): in <head> only, never in the page's data. */
  jsonLd?: (payload: PagePayload) => readonly object[];
  /** Shown in the last-resort page in development only. */
  exposeErrors: boolean;
  /**
   * The visitor's chosen theme (the `theme` cookie), written on <html> so that the first paint
   * is in it; null follows the system. Outside React's markup: the render cache ignores it.
   */
  theme?: Theme | null;
  onError: (error: unknown) => void;
  /** The server's fixed translators (i18next's getFixedT per locale, made at start): React renders with them. */
  translators?: (locale: Locale) => Translate;
};

const RENDER_TIMEOUT_MS = 10_000;

function bootOf(payload: PagePayload, options: RenderOptions): BootData {
  return {
    payload,
    messages: options.messages,
    messageUrls: options.messageUrls,
    siteName: options.siteName,
    brand: options.brand.page,
    consent: options.consent,
    localeCookie: options.localeCookie,
  };
}

/**
 * Branding colours in the first paint, through a nonce'd <style> (no inline style attributes).
 * It must beat the stylesheet's `:root` defaults by construction, not by luck: it comes after
 * the stylesheet links *and* its selector is more specific (`html:root` over `:root`).
 */
function brandingStyle(payload: PagePayload, nonce: string): string {
  const variables = brandingCssVariables(payload.branding);
  if (!variables) return '';
  return `<style id="${BRANDING_STYLE_ID}" nonce="${nonce}">html:root{${cssDeclarations(variables)}}</style>`;
}

function cssDeclarations(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

/**
 * The brand's colours (brand/brand.json) over the stylesheet's defaults: after the stylesheet
 * links, as plain `:root`, so that a user's branding (`html:root`, above) still wins.
 */
function brandStyle(options: RenderOptions): string {
  return `<style nonce="${options.nonce}">:root{${cssDeclarations(brandCssVariables(options.brand))}}</style>`;
}

/**
 * Open Graph and Twitter tags, the feeds' links and the JSON-LD. The client replaces the first
 * two and removes the last on navigation (client/runtime/document.ts).
 */
function publishingTags(payload: PagePayload, options: RenderOptions): string[] {
  const { head } = payload;
  return [
    ...(head.social ?? []).map(
      ([key, content]) =>
        `<meta ${key.startsWith('twitter:') ? 'name' : 'property'}="${escapeHtml(key)}" content="${escapeHtml(content)}">`,
    ),
    ...(head.feeds ?? []).map(
      (feed) => `<link rel="alternate" type="${feed.type}" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.href)}">`,
    ),
    ...(options.jsonLd?.(payload) ?? []).map(
      (data) => `<script type="application/ld+json" nonce="${options.nonce}">${jsonForScript(data)}</script>`,
    ),
  ];
}

/**
 * Without scripts React's streamed sections stay in their hidden holders and their fallbacks
 * stay shown: a page that streams shows them anyway (after its main content), so that its HTML
 * is whole without JavaScript too.
 */
function noScriptStreaming(nonce: string): string {
  return `<noscript><style nonce="${nonce}">div[hidden][id^="S:"]{display:block}.streamed-fallback{display:none}</style></noscript>`;
}

function documentHead(payload: PagePayload, options: RenderOptions, streaming = false): string {
  const { head } = payload;
  const page = payload.state.kind === 'page' ? payload.state.page : '';
  const parts = [
    `<!DOCTYPE html><html lang="${payload.locale}"${options.theme ? ` data-theme="${options.theme}"` : ''}><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Both themes are supported: the browser may paint its canvas dark before the stylesheet.
    '<meta name="color-scheme" content="light dark">',
    // Before the first paint, so that the burger menu starts folded (no layout shift later);
    // and, only when scripts run, the preload of the messages the entry fetches before
    // hydrating (mode cors, same-origin credentials: hence crossOrigin, for the fetch to use it).
    `<script nonce="${options.nonce}">document.documentElement.classList.add('js');` +
      `{const l=document.createElement('link');l.rel='preload';l.as='fetch';l.crossOrigin='anonymous';` +
      `l.href=${jsonForScript(options.messageUrls[payload.locale])};document.head.appendChild(l)}</script>`,
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    head.robots ? `<meta name="robots" content="${escapeHtml(head.robots)}">` : '',
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">`,
    ...head.alternates.map((a) => `<link rel="alternate" hreflang="${a.hrefLang}" href="${escapeHtml(a.href)}">`),
    head.prev ? `<link rel="prev" href="${escapeHtml(head.prev)}">` : '',
    head.next ? `<link rel="next" href="${escapeHtml(head.next)}">` : '',
    ...publishingTags(payload, options),
    `<meta name="theme-color" content="${escapeHtml(options.brand.colors.primary)}">`,
    options.headExtra ?? '',
    `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`,
    `<link rel="manifest" href="${manifestPath(payload.locale)}">`,
    // The fonts the first paint draws with (at most two files), before the stylesheet asks for them.
    ...fontPreloadsFor(options.manifest).map((href) => `<link rel="preload" href="${href}" as="font" type="font/woff2" crossorigin>`),
    ...stylesheetsFor(options.manifest, page).map((href) => `<link rel="stylesheet" href="${href}">`),
    brandStyle(options),
    brandingStyle(payload, options.nonce),
    streaming ? noScriptStreaming(options.nonce) : '',
    ...preloadsFor(options.manifest, page).map((href) => `<link rel="modulepreload" href="${href}">`),
    '</head><body><div id="root">',
  ];
  return parts.join('');
}

/** Written as they are: strings (UTF-8) and bytes kept from an earlier render. */
type Piece = string | Buffer;

/**
 * The page's boot script: the boot data but the messages (PageBoot: the entry loads them from
 * their hashed URL), and the render cache's key: a digest of everything React's markup depends
 * on — that JSON and the messages.
 */
function bootJson(payload: PagePayload, options: RenderOptions): { json: string; key: string } {
  // The social tags and feed links are in the document's head already; the client needs them
  // only for the pages it navigates to (their /_data carries them), so the boot leaves them out.
  const { social: _social, feeds: _feeds, ...head } = payload.head;
  const { messages, ...pageBoot } = bootOf({ ...payload, head }, options);
  const json = jsonForScript(pageBoot satisfies PageBoot);
  return { json, key: renderKey(`${json}\u0000${options.messagesDigest ?? renderKey(JSON.stringify(messages))}`) };
}

function documentTail(bootJson: string, options: RenderOptions): string {
  return (
    `</div><script type="application/json" id="${BOOT_ELEMENT_ID}" nonce="${options.nonce}">${bootJson}</script>` +
    `<script type="module" src="${options.manifest.entry.file}" nonce="${options.nonce}"></script></body></html>`
  );
}

/** If the error page itself fails, a plain page that cannot fail. */
export function lastResortPage(locale: Locale, details: string | null): string {
  const texts = lastResortTexts(locale);
  return (
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${texts.title}</title></head><body><main><h1>${texts.title}</h1>` +
    (details ? `<pre>${escapeHtml(details)}</pre>` : '') +
    `<p><a href="${texts.href}">${texts.home}</a></p></main></body></html>`
  );
}

/**
 * Writes React's stream to `res`, then the tail (made once React is done: the boot data of a page
 * that streamed carries values that arrived meanwhile); with `keep`, also hands over the markup.
 */
function sinkInto(res: Response, tail: () => Promise<string>, keep?: (markup: Buffer) => void): Writable {
  const chunks: Buffer[] | null = keep ? [] : null;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks?.push(chunk);
      if (res.write(chunk)) callback();
      else res.once('drain', () => callback());
    },
    final(callback) {
      tail().then(
        (text) => {
          res.end(text);
          if (chunks && keep) keep(Buffer.concat(chunks));
          callback();
        },
        (error: unknown) => callback(error as Error),
      );
    },
  });
  // React calls flush() after each chunk it writes; compression buffers until told to flush.
  Object.assign(sink, { flush: () => (res as Response & { flush?: () => void }).flush?.() });
  return sink;
}

/**
 * Streams the page. If the shell fails, retries with the error page (500); if that fails
 * too, sends the last-resort page.
 */
export async function renderPage(res: Response, payload: PagePayload, options: RenderOptions): Promise<void> {
  const fail = (error: unknown): Promise<void> => {
    options.onError(error);
    if (payload.state.kind === 'page') {
      const failed: PagePayload = { ...payload, status: 500, state: { kind: 'error', error: { status: 500, message: '' } } };
      return renderPage(res, failed, options);
    }
    res.status(500).setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(lastResortPage(payload.locale, options.exposeErrors ? String((error as Error)?.stack ?? error) : null));
    return Promise.resolve();
  };

  // Data that had not arrived when the page was resolved streams (server/render/streamed.ts).
  const data = payload.state.kind === 'page' ? payload.state.data : null;
  const streaming = streamedFields(data).length > 0;
  let head: string;
  let tail: string | null = null;
  let key: string | null = null;
  try {
    if (payload.state.kind === 'page') await loadPage(payload.state.page);
    await preloadDeferred();
    head = documentHead(payload, options, streaming);
    if (!streaming) {
      const boot = bootJson(payload, options);
      tail = documentTail(boot.json, options);
      key = boot.key;
    }
  } catch (error) {
    return fail(error);
  }

  // A page that streams is rendered anew (its markup depends on data that was not there yet).
  const cache = key === null ? undefined : options.renderCache;
  const cached = key === null ? undefined : cache?.get(key);
  if (cached && tail !== null) {
    // The pieces as they are (the markup is bytes already: nothing copied or encoded again),
    // with the length announced (no chunked encoding), in one corked write.
    const pieces: Piece[] = [head, ...cached.parts.flatMap((part, i) => (i === 0 ? [part] : [options.nonce, part])), tail];
    const length = pieces.reduce((sum, piece) => sum + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length), 0);
    res.status(payload.status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', length);
    res.cork();
    for (let i = 0; i < pieces.length - 1; i++) res.write(pieces[i]!);
    res.end(pieces[pieces.length - 1]);
    res.uncork();
    return;
  }
  // A render that reported an error is never kept.
  let renderFailed = false;
  const keep =
    key !== null && cache?.wants(key)
      ? (markup: Buffer) => {
          if (!renderFailed) cache.set(key, markup, options.nonce);
        }
      : undefined;
  // The render's deadline: what has not arrived by then is left to the browser.
  let cut!: () => void;
  const renderCut = new Promise<void>((resolve) => (cut = resolve));
  const tailOf = async (): Promise<string> => {
    if (tail !== null) return tail;
    const state = payload.state.kind === 'page' ? { ...payload.state, data: await resolvedData(data, renderCut) } : payload.state;
    return documentTail(bootJson({ ...payload, state }, options).json, options);
  };

  return new Promise<void>((resolve) => {
    let settled = false;
    const finish = () => {
      clearTimeout(timer);
      if (!settled) {
        settled = true;
        resolve();
      }
    };
    const boot = bootOf(payload, options);
    const element = (
      <StrictMode>
        <StaticRouter location={payload.url}>
          <App boot={boot} translators={options.translators} />
        </StaticRouter>
      </StrictMode>
    );
    const timer = setTimeout(() => {
      cut();
      stream.abort(new Error('Render timed out'));
    }, RENDER_TIMEOUT_MS);
    const stream = renderToPipeableStream(element, {
      nonce: options.nonce,
      // A section whose data is there is written in place, however long: React would otherwise
      // move a large one (past 12,800 bytes) into place by a script, which a page without
      // JavaScript never runs (only a page that streams carries the noscript style that shows
      // React's holders).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        res.status(payload.status);
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.write(head);
        const sink = sinkInto(res, tailOf, keep);
        sink.on('finish', finish);
        sink.on('error', finish);
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        fail(error).then(finish, finish);
      },
      onError(error) {
        renderFailed = true;
        options.onError(error);
      },
    });
    res.on('close', finish);
  });
}

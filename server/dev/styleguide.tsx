// GET /dev/styleguide (development only: createApp mounts it when NODE_ENV is not production):
// every component of the design system, in the light and the dark theme side by side, with the
// site's real stylesheet and, where they render without a page around them, the real React
// components (navbar, footer, form fields and feedback, state badges, project cards, tags).
// `?locale=es` shows them in Spanish. The colour swatches are read from client/styles/tokens.css.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { renderToStaticMarkup } from 'react-dom/server';
import { Footer } from '../../client/components/footer.tsx';
import { Navbar } from '../../client/components/navbar.tsx';
import { I18nProvider } from '../../client/translations.tsx';
import { StaticRouter } from 'react-router-dom';
import { defaultLocale, isLocale, LOCALES, type Locale } from '../../shared/locales.ts';
import type { PageBrand } from '../../shared/brand.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import type { Theme } from '../../shared/theme.ts';
import type { Messages } from '../../shared/translate.ts';
import { escapeHtml } from '../http/html.ts';
import type { ClientManifest } from '../render/manifest.ts';
import { PATHS } from '../base/paths.ts';
import {
  AlertsSection,
  BadgesSection,
  ButtonsSection,
  CardsSection,
  ColourTokensSection,
  DialogSection,
  FormFieldsSection,
  TableSection,
  TypeSection,
} from './styleguide-sections.tsx';

export const STYLEGUIDE_PATH = '/dev/styleguide';

/** The colour tokens of the light block, in their order (the dark block has the same names: test/design-tokens.test.ts). */
function colourTokens(): string[] {
  const css = readFileSync(join(PATHS.root, 'client', 'styles', 'tokens.css'), 'utf8');
  const light = css.slice(css.indexOf("[data-theme='light'] {"), css.indexOf("[data-theme='dark'] {"));
  return [...light.matchAll(/(--color-[\w-]+)\s*:/g)].map((m) => m[1]!);
}

/** Every component once, with ids made unique by `prefix` (the sheet is shown twice). */
function Sheet({
  theme,
  payload,
  siteName,
  brand,
  tokens,
}: {
  theme: Theme;
  payload: PagePayload;
  siteName: string;
  brand: PageBrand;
  tokens: string[];
}) {
  const form = `sg-${theme}`;
  const noop = () => undefined;
  return (
    <div className="sg-theme" data-theme={theme}>
      <p className="eyebrow">{theme === 'light' ? 'Light theme' : 'Dark theme'}</p>
      <Navbar payload={payload} siteName={siteName} brand={brand} user={null} branding={null} onSignedOut={noop} />

      <ColourTokensSection tokens={tokens} />
      <TypeSection />
      <ButtonsSection />
      <FormFieldsSection form={form} />
      <AlertsSection form={form} />
      <BadgesSection />
      <CardsSection />
      <TableSection theme={theme} />
      <DialogSection form={form} />

      <Footer siteName={siteName} brand={brand} onCookieSettings={noop} />
    </div>
  );
}

/** The styleguide's own layout: two columns (one on a phone), a chip per colour token. */
function styleguideCss(tokens: string[]): string {
  return [
    '.sg-head{padding:var(--space-6) var(--space-5) 0;max-width:var(--layout-max)}',
    '.sg-themes{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,40rem),1fr))}',
    '.sg-theme{background:var(--color-bg);color:var(--color-text);padding:var(--space-6) var(--space-5);min-width:0}',
    '.sg-section{margin-block:var(--space-8)}',
    '.sg-row{display:flex;flex-wrap:wrap;gap:var(--space-3);align-items:center;margin-block:var(--space-3)}',
    '.sg-gap{margin-top:var(--space-4)}',
    '.sg-display{font-size:var(--font-size-display);line-height:var(--line-height-tight);margin:0}',
    '.sg-swatches{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:var(--space-2)}',
    '.sg-swatch{display:flex;align-items:center;gap:var(--space-2);font-size:var(--font-size-xs)}',
    '.sg-chip{flex:none;width:2rem;height:2rem;border:1px solid var(--color-border-strong);border-radius:var(--radius-sm)}',
    '.sg-stage{position:relative;min-height:16rem;background:var(--color-backdrop);border-radius:var(--radius-lg)}',
    ...tokens.map((token) => `.sg-c${token.slice(7)}{background:var(${token})}`),
  ].join('\n');
}

export function styleguideHandler(options: {
  manifest: ClientManifest;
  siteName: string;
  brand: PageBrand;
  messages: (locale: Locale) => Messages;
}): RequestHandler {
  return (req, res) => {
    const locale: Locale = typeof req.query.locale === 'string' && isLocale(req.query.locale) ? req.query.locale : defaultLocale;
    const url = `${STYLEGUIDE_PATH}${locale === defaultLocale ? '' : `?locale=${locale}`}`;
    const payload: PagePayload = {
      url,
      status: 200,
      locale,
      routeName: null,
      params: {},
      state: { kind: 'error', error: { status: 404, message: '' } },
      head: { title: 'Styleguide', description: '', canonical: url, alternates: [] },
      user: null,
    };
    const tokens = colourTokens();
    const body = renderToStaticMarkup(
      <StaticRouter location={url}>
        <I18nProvider locale={locale} messages={options.messages(locale)}>
          <div className="sg-themes">
            {(['light', 'dark'] as const).map((theme) => (
              <Sheet key={theme} theme={theme} payload={payload} siteName={options.siteName} brand={options.brand} tokens={tokens} />
            ))}
          </div>
        </I18nProvider>
      </StaticRouter>,
    );
    const nonce = String(res.locals.cspNonce ?? '');
    res
      .status(200)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' })
      .send(
        [
          `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">`,
          '<meta name="viewport" content="width=device-width, initial-scale=1">',
          '<meta name="robots" content="noindex"><meta name="color-scheme" content="light dark">',
          `<title>Styleguide · ${escapeHtml(options.siteName)}</title>`,
          ...options.manifest.entry.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
          `<style nonce="${escapeHtml(nonce)}">${styleguideCss(tokens)}</style>`,
          '</head><body><main id="sg">',
          '<div class="sg-head"><h1>Styleguide</h1>',
          '<p class="lead">Every component of the design system (client/styles/tokens.css), in both themes, with the real stylesheet. ',
          `Development only. ${otherLocales(locale)}</p></div>`,
          body,
          '</main></body></html>',
        ].join(''),
      );
  };
}

/** Links to the styleguide in every other locale of the table, each named in its own language. */
function otherLocales(locale: Locale): string {
  return LOCALES.filter((l) => l.code !== locale)
    .map((l) => `<a href="${STYLEGUIDE_PATH}?locale=${l.code}" lang="${l.code}">${escapeHtml(l.name)}</a>`)
    .join(' · ');
}

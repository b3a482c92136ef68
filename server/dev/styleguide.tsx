// GET /dev/styleguide (development only: createApp mounts it when NODE_ENV is not production):
// every component of the design system, in the light and the dark theme side by side, with the
// site's real stylesheet and, where they render without a page around them, the real React
// components (navbar, footer, form fields and feedback, state badges, project cards, tags).
// `?locale=es` shows them in Spanish. The colour swatches are read from client/styles/tokens.css.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { FormFeedback, TextField } from '../../client/components/form-feedback.tsx';
import { Footer } from '../../client/components/footer.tsx';
import { Navbar } from '../../client/components/navbar.tsx';
import { TagLinks } from '../../client/blog/tag-list.tsx';
import { I18nProvider } from '../../client/translations.tsx';
import { ProjectCards } from '../../client/projects/project-list.tsx';
import { StateBadge } from '../../client/projects/state-badge.tsx';
import { StaticRouter } from 'react-router-dom';
import { isLocale, type Locale } from '../../shared/locales.ts';
import type { PageBrand } from '../../shared/brand.ts';
import type { FormState, PagePayload } from '../../shared/page-data.ts';
import { PROJECT_STATES, type ProjectSummary } from '../../shared/projects.ts';
import type { Theme } from '../../shared/theme.ts';
import type { Messages } from '../../shared/translate.ts';
import { escapeHtml } from '../http/html.ts';
import type { ClientManifest } from '../render/manifest.ts';
import { PATHS } from '../base/paths.ts';

export const STYLEGUIDE_PATH = '/dev/styleguide';

/** The colour tokens of the light block, in their order (the dark block has the same names: test/design-tokens.test.ts). */
function colourTokens(): string[] {
  const css = readFileSync(join(PATHS.root, 'client', 'styles', 'tokens.css'), 'utf8');
  const light = css.slice(css.indexOf("[data-theme='light'] {"), css.indexOf("[data-theme='dark'] {"));
  return [...light.matchAll(/(--color-[\w-]+)\s*:/g)].map((m) => m[1]!);
}

const PROJECTS: ProjectSummary[] = [
  {
    id: 1,
    title: 'Accessibility audit of the customer portal',
    practice: 'digital',
    state: 'proposal',
    owner: { userName: 'carla', name: 'Carla', role: 'CLI' },
    company: { id: 1, name: 'Acme Retail S.L.' },
    organisation: 'Acme Retail',
    createdAt: '2026-03-02T09:00:00Z',
    updatedAt: '2026-03-09T09:00:00Z',
    unread: 2,
    waiting: 'answer_proposal',
  },
  {
    id: 2,
    title: 'Emissions reporting for the annual report',
    practice: 'sustainability',
    state: 'active',
    owner: { userName: 'olga', name: 'Olga', role: 'ORG' },
    company: { id: 2, name: 'Ayuntamiento de Villaverde' },
    organisation: null,
    createdAt: '2026-02-10T09:00:00Z',
    updatedAt: '2026-03-01T09:00:00Z',
    unread: 0,
    waiting: null,
  },
];

const TAGS = [
  { slug: 'accessibility', name: 'Accessibility' },
  { slug: 'data', name: 'Data' },
  { slug: 'sustainability', name: 'Sustainability' },
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="sg-section">
      <h2>{title}</h2>
      {children}
    </section>
  );
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
  const failed: FormState = {
    form,
    error: {
      code: 'invalid_request',
      message: 'Check the fields',
      fields: { email: 'validation.invalidEmail', consent: 'validation.consentRequired' },
    },
  };
  const noop = () => undefined;
  return (
    <div className="sg-theme" data-theme={theme}>
      <p className="eyebrow">{theme === 'light' ? 'Light theme' : 'Dark theme'}</p>
      <Navbar payload={payload} siteName={siteName} brand={brand} user={null} branding={null} onSignedOut={noop} />

      <Section title="Colour tokens">
        <ul className="sg-swatches">
          {tokens.map((token) => (
            <li key={token} className="sg-swatch">
              <span className={`sg-chip sg-c${token.slice(7)}`} />
              <code>{token}</code>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Type">
        <p className="eyebrow">Eyebrow</p>
        <h1 className="sg-display">Display heading for a hero</h1>
        <h3>Heading level 3</h3>
        <p className="lead">A lead paragraph introduces a page in a few calm words.</p>
        <p>
          Body text with <a href="#sg">a link</a>, <strong>strong words</strong> and <code className="admin-secret">a-secret-code</code>.
        </p>
        <p className="post-meta">Muted meta text · 12 March 2026</p>
      </Section>

      <Section title="Buttons">
        <div className="sg-row">
          <button type="button" className="button button-primary">
            Primary
          </button>
          <button type="button" className="button button-secondary">
            Secondary
          </button>
          <button type="button" className="button button-danger">
            Danger
          </button>
          <a className="button button-primary" href="#sg">
            A link as a button
          </a>
        </div>
        <div className="sg-row">
          <button type="button" className="button button-primary button-small">
            Small primary
          </button>
          <button type="button" className="button button-secondary button-small">
            Small secondary
          </button>
          <button type="button" className="button button-danger button-small">
            Small danger
          </button>
          <button type="button" className="link-button">
            Link button
          </button>
        </div>
        <div className="sg-row">
          <button type="button" className="button button-primary" disabled>
            Disabled
          </button>
          <button type="button" className="button button-secondary" disabled>
            Disabled
          </button>
          <button type="button" className="button button-secondary button-small" disabled>
            Small disabled
          </button>
        </div>
      </Section>

      <Section title="Form fields">
        <form className="form narrow" action="#sg" noValidate onSubmit={noop}>
          <FormFeedback state={failed} />
          <TextField form={form} state={failed} name="name" label="Name" defaultValue="Lucía Fernández" />
          <TextField form={form} state={failed} name="email" label="Email (with an error)" type="email" defaultValue="lucia@" />
          <div className="field">
            <label htmlFor={`${form}-practice`}>Practice</label>
            <select id={`${form}-practice`} defaultValue="data">
              <option value="digital">Digital</option>
              <option value="data">Data</option>
            </select>
            <p className="field-hint">A hint under a field.</p>
          </div>
          <div className="field">
            <label htmlFor={`${form}-message`}>Message</label>
            <textarea id={`${form}-message`} rows={3} defaultValue="Hello," />
          </div>
          <div className="field field-check">
            <input id={`${form}-consent`} type="checkbox" aria-invalid="true" aria-describedby={`${form}-consent-error`} />
            <label htmlFor={`${form}-consent`}>I accept the privacy policy</label>
            <p className="field-error" id={`${form}-consent-error`}>
              Please accept the privacy policy to send the message.
            </p>
          </div>
          <button type="button" className="button button-primary">
            Send
          </button>
        </form>
      </Section>

      <Section title="Alerts and notices">
        <FormFeedback state={{ form }} successText="Thank you: your message has been sent." />
        <p className="form-offline">You are offline: this form will not be sent.</p>
        <p className="notice">A notice: something worth knowing on this page.</p>
        <div className="offline-banner">
          <p>No connection: what you see may be out of date.</p>
        </div>
        <p className="empty-state">Nothing here yet: an empty state.</p>
      </Section>

      <Section title="Badges">
        <div className="sg-row">
          <span className="badge">Badge</span>
          <span className="badge badge-on">Active</span>
          <span className="badge badge-off">Disabled</span>
          <span className="badge badge-new">3 new</span>
          <span className="badge badge-invited">Invited</span>
        </div>
        <div className="sg-row">
          {PROJECT_STATES.map((state) => (
            <StateBadge key={state} state={state} />
          ))}
        </div>
      </Section>

      <Section title="Cards">
        <ul className="cards">
          <li className="card">
            <h3>Digital</h3>
            <p>A card: a title and a few lines on the surface colour.</p>
          </li>
          <li className="card">
            <h3>Data</h3>
            <p>Cards sit in a grid that wraps on a phone.</p>
          </li>
        </ul>
        <div className="sg-gap">
          <ProjectCards items={PROJECTS} role="ADMIN" showOwner />
        </div>
        <div className="thread-message sg-gap">
          <p className="thread-meta">Carla · 9 March 2026</p>
          <p>A message in a project&apos;s conversation.</p>
        </div>
      </Section>

      <Section title="Table (cards on a phone), pager, tags">
        <div className="table-wrap">
          <table className="data-table cards-on-phone">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {[
                ['ada', 'Admin', 'on'],
                ['carla', 'Client', 'off'],
              ].map(([user, role, state]) => (
                <tr key={user}>
                  <th scope="row">{user}</th>
                  <td data-label="Role">{role}</td>
                  <td data-label="State">
                    <span className={`badge badge-${state}`}>{state === 'on' ? 'Active' : 'Disabled'}</span>
                  </td>
                  <td>
                    <div className="actions">
                      <button type="button" className="button button-secondary button-small">
                        Reset password
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <nav className="pager" aria-label={`Pages (${theme})`}>
          <a href="#sg" rel="prev">
            Previous
          </a>
          <span>Page 2 of 5</span>
          <a href="#sg" rel="next">
            Next
          </a>
        </nav>
        <TagLinks tags={TAGS} current="data" label={`Tags (${theme})`} />
      </Section>

      <Section title="Dialog and spinner">
        <div className="sg-stage">
          <dialog open className="alert-dialog" aria-labelledby={`${form}-dialog`}>
            <h2 id={`${form}-dialog`}>Sign out?</h2>
            <p>An alert dialog, as the logout confirmation shows it.</p>
            <div className="alert-dialog-actions">
              <button type="button" className="alert-cancel">
                Cancel
              </button>
              <button type="button" className="alert-confirm">
                Sign out
              </button>
            </div>
          </dialog>
        </div>
        <div className="sg-row sg-gap">
          <span className="spinner" aria-hidden="true" />
        </div>
      </Section>

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
    const locale: Locale = typeof req.query.locale === 'string' && isLocale(req.query.locale) ? req.query.locale : 'en';
    const url = `${STYLEGUIDE_PATH}${locale === 'en' ? '' : `?locale=${locale}`}`;
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
          `Development only. <a href="${STYLEGUIDE_PATH}?locale=${locale === 'en' ? 'es' : 'en'}">${locale === 'en' ? 'En español' : 'In English'}</a></p></div>`,
          body,
          '</main></body></html>',
        ].join(''),
      );
  };
}

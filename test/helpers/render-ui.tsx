// The tier below the browser for a component's own state (docs/decisions/047): Testing Library
// renders it on happy-dom (a file that uses this starts with `// @vitest-environment happy-dom`),
// inside what every page gives it: a router at the page's path and the locale's messages.
import { render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { onTestFinished } from 'vitest';
import { I18nProvider } from '../../client/translations.tsx';
import { PATHS } from '../../server/base/paths.ts';
import { loadBrand } from '../../server/brand/brand.ts';
import type { PageBrand } from '../../shared/brand.ts';
import { localeHref, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import type { Messages } from '../../shared/translate.ts';
import { ORIGIN } from './app.ts';

/** The messages of every locale of the table, from the files the site loads (locales/<code>/common.json). */
export const MESSAGES = Object.fromEntries(
  LOCALE_CODES.map((locale) => [locale, JSON.parse(readFileSync(join(PATHS.locales, locale, 'common.json'), 'utf8')) as Messages]),
) as Record<Locale, Messages>;

/** The company's identity as the pages carry it (brand/). */
export function pageBrand(): PageBrand {
  return loadBrand().page;
}

/** A signed-out visitor's payload of the home page at `url`, for the components of the layout. */
export function homePayload(locale: Locale, url = localeHref('/', locale)): PagePayload {
  return {
    url,
    status: 200,
    locale,
    routeName: null,
    params: {},
    state: { kind: 'page', page: 'home', data: null },
    head: { title: '', description: '', canonical: `${ORIGIN}${url}`, alternates: [] },
    user: null,
  };
}

/** Renders `ui` as a page at `path` in `locale` shows it; unmounted when the test ends. */
export function renderInPage(ui: ReactNode, { locale, path }: { locale: Locale; path: string }) {
  const rendered = render(
    <MemoryRouter initialEntries={[path]}>
      <I18nProvider locale={locale} messages={MESSAGES[locale]}>
        {ui}
      </I18nProvider>
    </MemoryRouter>,
  );
  onTestFinished(() => rendered.unmount());
  return rendered;
}

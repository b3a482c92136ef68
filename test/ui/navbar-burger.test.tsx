// @vitest-environment happy-dom
// The burger's own state, rendered by Testing Library (docs/decisions/047): a press opens the
// menu (its name says it now closes it), another closes it, in both locales. What it looks like
// open, at which widths it shows and its keyboard are the browser's (test/e2e/navbar.test.ts,
// burger.test.ts, layout.test.ts).
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { Navbar } from '../../client/components/navbar.tsx';
import { homePayload, pageBrand, renderInPage } from '../helpers/render-ui.tsx';

test.each([
  { locale: 'es' as const, path: '/', open: 'Abrir menú', close: 'Cerrar menú', nav: 'Principal' },
  { locale: 'en' as const, path: '/en', open: 'Open menu', close: 'Close menu', nav: 'Main' },
])(
  'pressing the burger opens the menu and names it "$close"; pressing again closes it, "$open" ($path)',
  async ({ locale, path, open, close, nav }) => {
    const user = userEvent.setup();
    renderInPage(
      <Navbar
        payload={homePayload(locale, path)}
        siteName="the product"
        brand={pageBrand()}
        user={null}
        branding={null}
        onSignedOut={() => undefined}
      />,
      { locale, path },
    );
    const navigation = within(screen.getByRole('navigation', { name: nav }));
    const burger = navigation.getByRole('button', { name: open });
    const menu = document.getElementById(burger.getAttribute('aria-controls')!)!;
    expect(menu.dataset.open).toBe('false');

    await user.click(burger);
    expect(navigation.getByRole('button', { name: close })).toBe(burger);
    expect(burger.getAttribute('aria-expanded')).toBe('true');
    // Shown: the `.js .navbar-menu[data-open='false']` rule of the folded menu no longer hides it.
    expect(menu.dataset.open).toBe('true');

    await user.click(burger);
    expect(navigation.getByRole('button', { name: open })).toBe(burger);
    expect(burger.getAttribute('aria-expanded')).toBe('false');
    expect(menu.dataset.open).toBe('false');
  },
);

// The admin console as pages (docs/decisions/039), read from the app's server-rendered HTML
// (docs/decisions/047): every page shows the sub-navigation with exactly one link marked
// aria-current="page" (its own), in both locales; the admin's own row of the users page has no
// menu. What needs a browser (following the links without a reload, no sideways scroll at
// 390 px, the row menu's keyboard, axe-core) stays in test/e2e/admin-console.test.ts.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

/** The console's pages in the order of the sub-navigation, with their link's name in each locale. */
const PAGES = [
  { path: '/admin', en: 'Overview', es: 'Resumen' },
  { path: '/admin/projects', en: 'Projects', es: 'Proyectos' },
  { path: '/admin/users', en: 'Users', es: 'Usuarios' },
  { path: '/admin/inbox', en: 'Contact inbox', es: 'Buzón de contacto' },
  { path: '/admin/audit', en: 'Audit log', es: 'Registro de actividad' },
  { path: '/admin/deletions', en: 'Account deletion', es: 'Eliminación de cuentas' },
  { path: '/admin/branding', en: 'Branding', es: 'Imagen de marca' },
] as const;
const LOCALES = [
  { locale: 'es', prefix: '', nav: 'Secciones de la administración' },
  { locale: 'en', prefix: '/en', nav: 'Sections of the administration' },
] as const;

/** A browser signed in as the admin `ada`, on an app that also has a client, `carla`. */
async function signedInAdmin() {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Lovelace' });
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  const browser = plainBrowser(app);
  await browser.signIn('ada', DEFAULT_PASSWORD);
  return browser;
}

test.each(LOCALES)('$locale: each console page marks itself, and only itself, as the current page', async ({ locale, prefix, nav }) => {
  const browser = await signedInAdmin();
  for (const entry of PAGES) {
    const path = `${prefix}${entry.path}`;
    const page = await browser.open(path);
    expect(page.status, path).toBe(200);
    expect(page.url.pathname, path).toBe(path);
    const navigation = within(page.document.body).getByRole('navigation', { name: nav });
    expect(within(navigation).getAllByRole('link').map(textOf), path).toEqual(PAGES.map((p) => p[locale]));
    const current = [...navigation.querySelectorAll('[aria-current="page"]')].map((el) => ({
      text: textOf(el),
      href: el.getAttribute('href'),
    }));
    expect(current, path).toEqual([{ text: entry[locale], href: path }]);
  }
});

test("a row of the users page: the admin's own row has no menu, a link to their profile instead", async () => {
  const page = await (await signedInAdmin()).open('/en/admin/users');
  const rows = within(within(page.document.body).getByRole('region', { name: 'Users' })).getAllByRole('row');
  // Its header says whose it is: "ada (you)".
  const own = rows.filter((row) => /^ada\b/.test(textOf(row.querySelector('th[scope="row"]'))));
  expect(own).toHaveLength(1);
  expect(own[0]!.querySelectorAll('details.row-menu')).toHaveLength(0);
  expect(own[0]!.querySelectorAll('button, select')).toHaveLength(0);
  expect(within(own[0]!).getByRole('link').getAttribute('href')).toBe('/en/profile');
  // …while another user's row has its menu.
  const carla = rows.find((row) => textOf(row.querySelector('th[scope="row"]')) === 'carla');
  expect(carla?.querySelectorAll('details.row-menu')).toHaveLength(1);
});

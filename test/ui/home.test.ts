// The home page without JavaScript, read from the app's own server-rendered HTML
// (docs/decisions/047): the server's first paint is the whole page.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { testApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';

test('without JavaScript the home page still shows the full content and the navbar links', async () => {
  const page = await plainBrowser(await testApp()).open('/');
  expect(page.status).toBe(200);
  // No `js` class from the server (the client entry adds it): the folded menu's
  // `.js .navbar-menu[data-open='false']` never hides the links.
  expect(page.document.documentElement.getAttribute('class')).toBeNull();
  const navbar = within(page.document.body).getByRole('navigation', { name: 'Principal' });
  for (const [name, href] of [
    ['Servicios', '/practices'],
    ['Casos', '/case-studies'],
    ['Blog', '/blog'],
    ['English', '/en'],
    ['Área privada', '/login'],
  ]) {
    expect(within(navbar).getByRole('link', { name }).getAttribute('href'), `navbar link ${name}`).toBe(href);
  }
  expect(textOf(page.document.querySelector('h1'))).toBe('El experto adecuado para tu próximo proyecto, en pocos días');
  expect(page.document.querySelectorAll('.practices > li')).toHaveLength(4);
  // How it works: the owner's five steps and the expert's four.
  expect(page.document.querySelectorAll('.steps > li')).toHaveLength(9);
  // The four practices and the case studies; the four legal pages, contact and the site search;
  // the company's e-mail and phone (brand/brand.json).
  expect(page.document.querySelectorAll('footer a')).toHaveLength(13);
});

test('without JavaScript, the 404 page offers the same help, and its search is a plain form', async () => {
  const browser = plainBrowser(await testApp());
  let page = await browser.open('/no-existe');
  expect(page.status).toBe(404);
  const help = within(within(page.document.body).getByRole('navigation', { name: 'Páginas del sitio' }));
  expect(help.getAllByRole('link')).toHaveLength(7);
  const searchbox = within(page.document.body).getByRole('searchbox', { name: 'Buscar en el blog' }) as HTMLInputElement;
  searchbox.value = 'datos';
  page = await browser.submit(page, within(page.document.body).getByRole('button', { name: 'Buscar' }) as HTMLButtonElement);
  expect(page.url.pathname + page.url.search).toBe('/blog?q=datos');
  expect(textOf(page.document.querySelector('h1'))).toContain('datos');
});

test('the footer says © with this year (in Madrid) and the company’s legal name', async () => {
  const page = await plainBrowser(await testApp()).open('/');
  const year = new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: 'Europe/Madrid' }).format(new Date());
  expect(textOf(page.document.querySelector('.footer-copyright'))).toMatch(new RegExp(`^© ${year} .+ S\\.L\\.$`));
});

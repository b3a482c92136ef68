// (f) Without JavaScript the server-rendered first paint is the whole page.
import { describe, expect, it } from 'vitest';
import { setupSite } from './fixture.ts';

const site = setupSite();

describe('without JavaScript', () => {
  it('the home page still shows the full content and the navbar links', async () => {
    const page = await site.newPage({ javaScriptEnabled: false });
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    // The client entry never ran: it would have marked <html> with the `js` class.
    expect(await page.locator('html').getAttribute('class')).toBeNull();

    const navbar = page.getByRole('navigation', { name: 'Principal' });
    for (const [name, href] of [
      ['Blog', '/blog'],
      ['English', '/en'],
      ['Área privada', '/login'],
    ]) {
      const link = navbar.getByRole('link', { name, exact: true });
      expect(await link.isVisible(), `navbar link ${name}`).toBe(true);
      expect(await link.getAttribute('href')).toBe(href);
    }

    expect(await page.locator('h1').innerText()).toBe('El experto adecuado para tu próximo proyecto, en pocos días');
    expect(await page.locator('.practices > li').count()).toBe(4);
    // How it works: the owner's five steps and the expert's four.
    expect(await page.locator('.steps > li').count()).toBe(9);
    // The four legal pages and contact, and the company's e-mail and phone (brand/brand.json).
    expect(await page.locator('footer a').count()).toBe(7);
  });
});

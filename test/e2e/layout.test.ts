// What the user sees of the layout, measured in a real browser (computed styles and element
// boxes): the pages' vertical padding in the wide layout, the contact form's consent row, the
// admin users list on a phone, the burger's close state, the signed-in burger menu, the Contact
// link, the profile's file input, and no horizontal scrolling on a 390 px phone on any page, for
// any role, with and without JavaScript. The pages are every page of the route table
// (test/helpers/sample-urls.ts). This file starts its own server with one user per role and the
// demo projects.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { defaultLocale } from '../../shared/locales.ts';
import { BASE_ROUTES, localePath, type BaseRoute, type RouteBase } from '../../shared/routes.ts';
import { confinedArea } from '../../shared/user.ts';
import { DESKTOP as LAPTOP, PHONE, setupSite, waitForHydration } from './fixture.ts';
import { EVERY_PAGE, ROLE_USERS, SAMPLE_SITE, type RoleUser } from './helpers.ts';

/** The contact form refuses answers sent less than 3 s after the page was served. */
const FILL_WAIT_MS = 3_200;

const site = setupSite(SAMPLE_SITE);

type Visit = {
  viewport: { width: number; height: number };
  role?: RoleUser['role'] | undefined;
  javaScript?: boolean;
  /** false: a first visit, with the cookie banner showing. */
  consented?: boolean;
};

/** A new page on this file's server: signed in as `role` (or signed out), cookie banner answered. */
function openPage({ viewport, role, javaScript = true, consented = true }: Visit): Promise<Page> {
  const as = role ? ROLE_USERS.find((user) => user.role === role)!.userName : undefined;
  return site.newPage({ viewport, javaScriptEnabled: javaScript, as, consent: consented });
}

async function withPage(visit: Visit, run: (page: Page) => Promise<void>): Promise<void> {
  await run(await openPage(visit));
}

async function load(page: Page, path: string, javaScript = true): Promise<void> {
  await page.goto(path);
  if (javaScript) await waitForHydration(page);
}

type Box = { left: number; top: number; right: number; bottom: number; width: number; height: number };

function box(locator: Locator): Promise<Box> {
  return locator.evaluate((el) => {
    const { left, top, right, bottom, width, height } = el.getBoundingClientRect();
    return { left, top, right, bottom, width, height };
  });
}

function horizontalOverflow(page: Page) {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

describe('from 1087 px the pages keep their vertical padding', () => {
  // The wide layout widens the side padding only; it used to reset the
  // `.page` padding to 0, so that headings sat on the navbar and buttons on the footer. Every
  // page in the default locale (the padding does not depend on the words), but those laid out
  // without a `.page` column, each for its reason.
  const NO_PAGE_COLUMN: Partial<Record<RouteBase, string>> = {
    index: 'the home page: full-width sections from the hero down',
    notFound: 'the error view (.error-page), centred on its own',
  };
  const PAGES = EVERY_PAGE.filter((page) => page.locale === defaultLocale && !(page.base && page.base in NO_PAGE_COLUMN));

  it.each(PAGES)(
    'at 1366 px $path ($visitor) has ≥ 16 px between the navbar and the h1 and between the content and the footer',
    async ({ path, role }) => {
      await withPage({ viewport: LAPTOP, role }, async (page) => {
        await load(page, path);
        const gaps = await page.evaluate(() => {
          const navbar = document.querySelector('.navbar')!.getBoundingClientRect();
          const h1 = document.querySelector('main h1')!.getBoundingClientRect();
          const footer = document.querySelector('footer')!.getBoundingClientRect();
          // The lowest visible box of the page's content (inside the page's element: its own
          // box and those of the wrappers around it include the padding). Not what a closed
          // <details> holds: it is not rendered, but measuring it lays it out all the same.
          let contentBottom = 0;
          for (const el of document.querySelectorAll('main .page *')) {
            const r = el.getBoundingClientRect();
            if (r.height > 0 && r.width > 0 && el.checkVisibility({ visibilityProperty: true }))
              contentBottom = Math.max(contentBottom, r.bottom);
          }
          const pageStyle = getComputedStyle(document.querySelector('main .page')!);
          return {
            aboveH1: h1.top - navbar.bottom,
            belowContent: footer.top - contentBottom,
            padding: `${pageStyle.paddingTop} / ${pageStyle.paddingBottom}`,
          };
        });
        expect(gaps.aboveH1, 'navbar → h1').toBeGreaterThanOrEqual(16);
        expect(gaps.belowContent, 'content → footer').toBeGreaterThanOrEqual(16);
        // The page's own padding (2.5rem / 3.5rem), not cancelled by `.container`.
        expect(gaps.padding).toBe('40px / 56px');
      });
    },
  );
});

describe('from 1087 px the footer lines up', () => {
  it('at 1366 px the footer’s text starts where the navbar’s and the page’s do', async () => {
    await withPage({ viewport: LAPTOP }, async (page) => {
      await load(page, '/en/blog');
      const starts = await page.evaluate(() => {
        const contentLeft = (selector: string) => {
          const el = document.querySelector(selector)!;
          return Math.round(el.getBoundingClientRect().left + parseFloat(getComputedStyle(el).paddingLeft));
        };
        return { navbar: contentLeft('.navbar-inner'), page: contentLeft('main .container'), footer: contentLeft('.footer-inner') };
      });
      expect(starts.footer).toBe(starts.navbar);
      expect(starts.page).toBe(starts.navbar);
    });
  });
});

describe('the contact form’s consent row', () => {
  /** The consent field, its checkbox, label and error, measured once the error shows. */
  async function consentRow(page: Page) {
    const [field, checkbox, label, error] = await Promise.all([
      box(page.locator('.field:has(> #contact-consent)')),
      box(page.locator('#contact-consent')),
      box(page.locator('label[for="contact-consent"]')),
      box(page.locator('#contact-consent-error')),
    ]);
    const lineHeight = await page.locator('label[for="contact-consent"]').evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    return { field, checkbox, label, error, lineHeight };
  }

  function expectOneRowAndErrorBelow({ field, checkbox, label, error, lineHeight }: Awaited<ReturnType<typeof consentRow>>) {
    // A checkbox-sized checkbox, the label right of it on the same row (the checkbox's middle
    // within the label's first line, their tops a few pixels apart)…
    expect(checkbox.width, 'checkbox width').toBeLessThanOrEqual(32);
    expect(label.left).toBeGreaterThan(checkbox.right);
    expect(Math.abs(checkbox.top - label.top)).toBeLessThanOrEqual(8);
    const middle = (checkbox.top + checkbox.bottom) / 2;
    expect(middle).toBeGreaterThanOrEqual(label.top);
    expect(middle).toBeLessThanOrEqual(label.top + lineHeight);
    // …and the label keeps the rest of the row: the error does not widen the checkbox's column.
    expect(label.left - field.left, 'label indent').toBeLessThanOrEqual(48);
    // The error below both.
    expect(error.top).toBeGreaterThanOrEqual(Math.max(checkbox.bottom, label.bottom) - 0.5);
  }

  it('with JavaScript, an empty form shows the consent error below the checkbox and its label, which stay on one row', async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      await load(page, '/en/Contact');
      await page.locator('main form').getByRole('button', { name: 'Send message' }).click();
      await page.locator('#contact-consent-error').waitFor();
      expectOneRowAndErrorBelow(await consentRow(page));
      // The checkbox has no border to turn red like the other fields': an outline marks it.
      expect(await page.locator('#contact-consent').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    });
  });

  it('without JavaScript, the server-rendered consent error sits below the checkbox and its label, which stay on one row', async () => {
    await withPage({ viewport: LAPTOP, javaScript: false }, async (page) => {
      await load(page, '/Contact', false);
      await page.waitForTimeout(FILL_WAIT_MS);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.locator('main form').getByRole('button', { name: 'Enviar mensaje' }).click(),
      ]);
      expect(response.status()).toBe(422);
      await page.locator('#contact-consent-error').waitFor();
      expectOneRowAndErrorBelow(await consentRow(page));
    });
  });
});

describe('the admin users list at 390 px', () => {
  it('shows each user as a card whose action buttons are all on screen, with no horizontal scrolling', async () => {
    await withPage({ viewport: PHONE, role: 'ADMIN' }, async (page) => {
      await load(page, '/en/admin/users');
      // The first row with a menu (the admin's own row has none), its menu open.
      const firstUser = page
        .locator('.admin-users-table tbody tr')
        .filter({ has: page.locator('details.row-menu') })
        .first();
      await firstUser.locator('details.row-menu summary').click();
      await firstUser.locator('.row-menu-items').waitFor();
      const controls = firstUser.locator('summary, button, select');
      expect(await controls.count()).toBeGreaterThanOrEqual(3);
      for (const control of await controls.all()) {
        const b = await box(control);
        const name = (await control.textContent())?.trim();
        expect(b.width, `${name} has a box`).toBeGreaterThan(0);
        expect(b.left, `${name} left`).toBeGreaterThanOrEqual(0);
        expect(b.right, `${name} right`).toBeLessThanOrEqual(PHONE.width);
      }
      // Nor does the list scroll sideways in its own box (a scroll with no hint of more).
      const wrap = await page.locator('.admin-users-table').evaluate((table) => {
        const scroller = table.parentElement!;
        return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
      });
      expect(wrap.scrollWidth).toBeLessThanOrEqual(wrap.clientWidth);
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  });
});

describe('the admin users search at 1366 px', () => {
  it('lines the Search button up with the search box, not with the hint under it', async () => {
    await withPage({ viewport: LAPTOP, role: 'ADMIN' }, async (page) => {
      await load(page, '/en/admin/users');
      const form = page.locator('form.admin-search');
      const input = await box(form.locator('input[type="search"]'));
      const button = await box(form.getByRole('button', { name: 'Search' }));
      expect(Math.abs(button.bottom - input.bottom)).toBeLessThanOrEqual(4);
      const hint = await box(form.locator('.field-hint'));
      expect(hint.top).toBeGreaterThanOrEqual(input.bottom);
    });
  });
});

describe('the admin contact inbox at 390 px', () => {
  it('shows each message as a card: sender, subject and date on screen, words unbroken, nothing scrolling sideways', async () => {
    // A message with a long subject, sent through the form as a visitor would.
    const visitor = await site.newPage();
    await visitor.goto('/en/Contact');
    const formToken = await visitor.locator('input[name="formToken"]').inputValue();
    await visitor.waitForTimeout(FILL_WAIT_MS);
    const sent = await visitor.request.post('/en/Contact', {
      headers: { Origin: site.baseURL },
      form: {
        name: 'Valentina Domínguez',
        email: 'valentina@example.com',
        subject: 'Presupuesto para un proyecto de transformación digital',
        message: 'Queremos saber más sobre vuestro trabajo.',
        consent: 'yes',
        formToken,
      },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(303);
    await withPage({ viewport: PHONE, role: 'ADMIN' }, async (page) => {
      await load(page, '/en/admin/inbox');
      // The list is part of the page the server renders.
      await page.locator('section.admin-inbox').scrollIntoViewIfNeeded();
      const row = page.locator('.admin-inbox-table tbody tr').first();
      await row.waitFor();
      for (const cell of await row.locator('th, td').all()) {
        const b = await box(cell);
        expect(b.left, 'cell left').toBeGreaterThanOrEqual(0);
        expect(b.right, 'cell right').toBeLessThanOrEqual(PHONE.width);
      }
      const dateBox = await box(row.locator('time'));
      expect(dateBox.right).toBeLessThanOrEqual(PHONE.width);
      // The subject breaks between words only: no line of it ends inside a word.
      const subjectLines = await row.locator('.admin-inbox-open').evaluate((button) => {
        const range = document.createRange();
        range.selectNodeContents(button.firstChild!);
        return range.getClientRects().length;
      });
      expect(subjectLines).toBeLessThanOrEqual(3);
      const wrap = await page.locator('.admin-inbox-table').evaluate((table) => {
        const scroller = table.parentElement!;
        return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
      });
      expect(wrap.scrollWidth).toBeLessThanOrEqual(wrap.clientWidth);
    });
  });
});

describe('the burger', () => {
  /** The angle (degrees) of a bar of the icon, from its computed transform; 0 when none. */
  function barAngles(page: Page) {
    return page.locator('.navbar-burger .burger-icon').evaluate((icon) => {
      const angle = (pseudo: string) => {
        const transform = getComputedStyle(icon, pseudo).transform;
        if (transform === 'none') return 0;
        const matrix = new DOMMatrixReadOnly(transform);
        return Math.round((Math.atan2(matrix.b, matrix.a) * 180) / Math.PI);
      };
      return { before: angle('::before'), after: angle('::after'), middle: getComputedStyle(icon).backgroundColor };
    });
  }

  it('turns into an X named "Close menu" while the menu is open, and back into ☰ named "Open menu"', async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      await load(page, '/en');
      const navigation = page.getByRole('navigation', { name: 'Main' });
      expect(await barAngles(page)).toEqual({ before: 0, after: 0, middle: 'rgb(6, 35, 38)' });

      await navigation.getByRole('button', { name: 'Open menu', exact: true }).click();
      const close = navigation.getByRole('button', { name: 'Close menu', exact: true });
      expect(await close.getAttribute('aria-expanded')).toBe('true');
      // Two crossed bars, the middle one gone (after the short transition).
      await expect.poll(() => barAngles(page)).toEqual({ before: 45, after: -45, middle: 'rgba(0, 0, 0, 0)' });

      await close.click();
      expect(await navigation.getByRole('button', { name: 'Open menu', exact: true }).getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => barAngles(page)).toEqual({ before: 0, after: 0, middle: 'rgb(6, 35, 38)' });
    });
  });

  it.each([
    { locale: 'es', path: '/organization', open: 'Abrir menú', nav: 'Principal', entries: ['Mi perfil', 'Cerrar sesión', 'Mi área'] },
    { locale: 'en', path: '/en/organization', open: 'Open menu', nav: 'Main', entries: ['My Profile', 'Log-Out', 'My area'] },
  ])('signed in at 390 px ($locale), each entry of the open menu is on one line', async ({ path, open, nav, entries }) => {
    // ORG: the longest test name (Olga Organización) next to the entries.
    await withPage({ viewport: PHONE, role: 'ORG' }, async (page) => {
      await load(page, path);
      const navigation = page.getByRole('navigation', { name: nav });
      await navigation.getByRole('button', { name: open, exact: true }).click();
      // My Profile and Log-Out are in the user's menu, under the avatar and the name.
      await navigation.locator('.navbar-user-button').click();
      for (const [index, label] of entries.entries()) {
        // My Profile, Log-Out (a form's button), the area link.
        const entry = navigation.getByRole(index === 1 ? 'button' : 'link', { name: label, exact: true });
        const lines = await entry.evaluate((el) => {
          const style = getComputedStyle(el);
          const content =
            el.getBoundingClientRect().height -
            parseFloat(style.paddingTop) -
            parseFloat(style.paddingBottom) -
            parseFloat(style.borderTopWidth) -
            parseFloat(style.borderBottomWidth);
          return content / parseFloat(style.lineHeight);
        });
        expect(lines, `"${label}" spans ${lines.toFixed(2)} lines`).toBeLessThan(1.5);
        const b = await box(entry);
        expect(b.right, `"${label}" is on screen`).toBeLessThanOrEqual(PHONE.width);
      }
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  });
});

describe('Contact is in the navigation', () => {
  it.each([
    { where: 'the wide navbar (es)', viewport: LAPTOP, start: '/blog', nav: 'Principal', open: null, name: 'Contacto', href: '/Contact' },
    {
      where: 'the burger menu (en)',
      viewport: PHONE,
      start: '/en/blog',
      nav: 'Main',
      open: 'Open menu',
      name: 'Contact',
      href: '/en/Contact',
    },
  ])('$where has a visible Contact link that leads to $href', async ({ viewport, start, nav, open, name, href }) => {
    await withPage({ viewport }, async (page) => {
      await load(page, start);
      const navigation = page.getByRole('navigation', { name: nav });
      if (open) await navigation.getByRole('button', { name: open, exact: true }).click();
      const link = navigation.getByRole('link', { name, exact: true });
      expect(await link.getAttribute('href')).toBe(href);
      const b = await box(link);
      expect(b.width).toBeGreaterThan(0);
      expect(b.left).toBeGreaterThanOrEqual(0);
      expect(b.right).toBeLessThanOrEqual(viewport.width);
      expect(b.bottom).toBeLessThanOrEqual(viewport.height);
      await link.click();
      await page.waitForURL((url) => url.pathname === href);
    });
  });
});

describe('the profile page at 390 px', () => {
  it('the avatar file input fits inside the page column', async () => {
    await withPage({ viewport: PHONE, role: 'CONS' }, async (page) => {
      await load(page, '/en/profile');
      const input = await box(page.locator('main input[type="file"]'));
      const column = await page.locator('main .page').evaluate((el) => {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return { left: r.left + parseFloat(style.paddingLeft), right: r.right - parseFloat(style.paddingRight) };
      });
      expect(input.left).toBeGreaterThanOrEqual(column.left);
      expect(input.right).toBeLessThanOrEqual(column.right);
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  });
});

describe('no horizontal scrolling at 390 px', () => {
  const TABLE: readonly BaseRoute[] = BASE_ROUTES;
  // Each role on every private page without parameters that its role guard lets it open (ADMIN
  // every area, the others their own and the pages of every signed-in user).
  const privateVisits = ROLE_USERS.flatMap(({ role }) =>
    TABLE.filter((route) => !route.public && !route.path.includes(':'))
      .filter((route) => route.area === undefined || confinedArea(role) === undefined || confinedArea(role) === route.area)
      .map((route) => ({ role, path: localePath(route.base, defaultLocale) })),
  );

  // Every page with JavaScript, as a first visit (the cookie banner showing): pages.test.ts, in
  // the same load as its other checks.

  it.each(privateVisits)('$path signed in as $role, with JavaScript', async ({ role, path }) => {
    await withPage({ viewport: PHONE, role }, async (page) => {
      await load(page, path);
      expect(new URL(page.url()).pathname).toBe(path);
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  });

  // Every page in the default locale (Spanish: its words run longer than English ones).
  it.each(EVERY_PAGE.filter((page) => page.locale === defaultLocale))('$path without JavaScript ($visitor)', async ({ path, role }) => {
    await withPage({ viewport: PHONE, role, javaScript: false }, async (page) => {
      await load(page, path, false);
      expect(await page.locator('html').getAttribute('class')).toBeNull();
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  });
});

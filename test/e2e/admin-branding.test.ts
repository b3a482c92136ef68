// The branding editor as the admin uses it, at 1366 px and at 390 px: a bad colour gets a field
// error; a colour and a logo saved for a CLI user paint that user's navbar on /client (its
// *computed* background, and a logo the browser really decoded); "Reset to default" and
// "Remove logo" bring back the default teal and the site's logo. The editor opens on the
// console's branding page (/admin/branding), from its list or from a users page row menu
// (?user=). This file starts its own server with one user per role.
import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, ROLE_USERS } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-admin';
const ADMIN = ROLE_USERS.find((user) => user.role === 'ADMIN')!;
const CLIENT = ROLE_USERS.find((user) => user.role === 'CLI')!;
/** The default navbar colour, #30B7BB. */
const TEAL = 'rgb(48, 183, 187)';
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The logo's middle, where the navbar must show it. */
const AMBER = [245, 158, 11];

/** A 36×36 RGB PNG (the navbar's logo size): white, with an amber square in the middle. */
function logoPng(): Buffer {
  const size = 36;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // no filter
    for (let x = 0; x < size; x++) rows.push(...(x >= 8 && x < 28 && y >= 8 && y < 28 ? AMBER : [255, 255, 255]));
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
const LOGO_PNG = logoPng();
/** Both runs start from the default branding and end there; each sets a colour of its own. */
const RUNS = [
  { label: '1366 px', viewport: { width: 1366, height: 768 }, color: '#8B0000', rgb: 'rgb(139, 0, 0)' },
  { label: '390 px', viewport: { width: 390, height: 844 }, color: '#14532d', rgb: 'rgb(20, 83, 45)' },
] as const;

const site = setupSite({ users: ROLE_USERS });
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** A page signed in as `userName` (through the login form, once per user and file). */
function newPage(viewport: { width: number; height: number }, userName: string): Promise<Page> {
  return site.newPage({ viewport, as: userName });
}

/** Visible, with a box of its own that lies across the window's width (nothing cut off sideways). */
async function expectOnScreen(locator: Locator, width: number, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  expect(await locator.isVisible(), `${what} is visible`).toBe(true);
  const b = await locator.evaluate((el) => {
    const { left, right, width } = el.getBoundingClientRect();
    return { left, right, width };
  });
  expect(b.width, `${what} has a width`).toBeGreaterThan(0);
  expect(b.left, `${what} left`).toBeGreaterThanOrEqual(0);
  expect(b.right, `${what} right`).toBeLessThanOrEqual(width);
}

/** The client's navbar as the browser paints it: computed background, and the logo it decoded. */
async function clientNavbar(page: Page): Promise<{ background: string; logo: string; decoded: boolean; centre: number[] }> {
  await page.goto('/client');
  await waitForHydration(page);
  expect(new URL(page.url()).pathname).toBe('/client');
  const logo = page.locator('header.navbar .navbar-brand img');
  await logo.evaluate((img: HTMLImageElement) =>
    img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
  );
  return {
    background: await page.locator('header.navbar').evaluate((el) => getComputedStyle(el).backgroundColor),
    ...(await logo.evaluate((img: HTMLImageElement) => {
      // The middle pixel as decoded (a same-origin image may be read back from a canvas).
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const middle = context.getImageData(Math.floor(img.naturalWidth / 2), Math.floor(img.naturalHeight / 2), 1, 1).data;
      return { logo: img.getAttribute('src') ?? '', decoded: img.complete && img.naturalWidth > 0, centre: [...middle].slice(0, 3) };
    })),
  };
}

describe.each(RUNS)('the branding editor at $label', ({ viewport, color, rgb }) => {
  const { width } = viewport;

  test(
    'a colour and a logo set for a CLI user paint their navbar on /client; a bad colour gets a field error; reset brings back the teal',
    { timeout: scaled(90_000) },
    async () => {
      const admin = await newPage(viewport, ADMIN.userName);
      const adminProblems = collectProblems(admin);
      // The CLI user signs in through the login form (the helper does) and keeps this window.
      const client = await newPage(viewport, CLIENT.userName);
      const before = await clientNavbar(client);
      expect(before.background).toBe(TEAL);
      expect(before.decoded).toBe(true);

      // The admin opens the editor from the user's row of the branding page; its heading takes the focus.
      await admin.goto('/en/admin/branding');
      await waitForHydration(admin);
      const row = admin.locator('tbody tr', { has: admin.getByRole('rowheader', { name: CLIENT.userName, exact: true }) });
      await row.getByRole('button', { name: `Branding of ${CLIENT.userName}` }).click();
      const editor = admin.getByRole('region', { name: `Branding of ${CLIENT.userName}` });
      const heading = editor.getByRole('heading', { level: 2 });
      await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
      await editor.getByText('Current colour: the default one (#30B7BB).').waitFor();
      await expectOnScreen(editor, width, 'the editor');

      // A bad colour: the field says so, and nothing is saved.
      const code = editor.getByRole('textbox', { name: 'Colour code' });
      const save = editor.getByRole('button', { name: 'Save colour' });
      await code.fill('#12345');
      await save.click();
      const colorError = editor.locator('.field-error');
      await expect.poll(() => colorError.textContent()).toBe('Enter a hexadecimal colour: # followed by 3 or 6 digits from 0–9 and a–f.');
      await expectOnScreen(colorError, width, 'the colour error');
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect((await code.getAttribute('aria-describedby'))?.split(' ')).toContain(await colorError.getAttribute('id'));
      expect(await editor.getByRole('status').count()).toBe(0);

      // A good one: the preview shows it as it is typed, then it is saved.
      await code.fill(color);
      expect(await colorError.count()).toBe(0);
      const bar = editor.locator('.admin-branding-bar');
      await expect.poll(() => bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb);
      await save.click();
      const saved = editor
        .getByRole('status')
        .filter({ hasText: new RegExp(`^The colour of ${CLIENT.userName} is now ${color}\\.$`, 'i') });
      await saved.waitFor();
      await expectOnScreen(saved, width, 'the saved notice');

      // The logo: uploaded raw, then shown in the preview.
      await editor.getByLabel('New logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
      await editor.getByRole('button', { name: 'Upload logo' }).click();
      await editor
        .getByRole('status')
        .filter({ hasText: `The new logo of ${CLIENT.userName} has been saved.` })
        .waitFor();
      const previewLogo = bar.locator('img');
      await expect.poll(() => previewLogo.getAttribute('src')).toMatch(/^\/api\/branding-logos\//);
      await expect.poll(() => previewLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const { scrollWidth, innerWidth } = await admin.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await editor.screenshot({ path: `${SHOTS}/branding-${width}.png` });

      // The CLI user's next page load: the colour painted, the logo decoded.
      const branded = await clientNavbar(client);
      expect(branded.background).toBe(rgb);
      expect(branded.logo).toBe(await previewLogo.getAttribute('src'));
      expect(branded.decoded).toBe(true);
      expect(branded.centre).toEqual(AMBER);
      await client.screenshot({ path: `${SHOTS}/client-branded-${width}.png` });

      // Back to the default colour, and the logo removed after a confirmation.
      await editor.getByRole('button', { name: 'Reset to default' }).click();
      await editor
        .getByRole('status')
        .filter({ hasText: `${CLIENT.userName} has the default colour again (#30B7BB).` })
        .waitFor();
      expect(await code.inputValue()).toBe('#30B7BB');
      await editor.getByRole('button', { name: `Remove logo of ${CLIENT.userName}` }).click();
      const dialog = admin.getByRole('alertdialog', { name: `Remove the logo of ${CLIENT.userName}?` });
      await dialog.waitFor();
      await expectOnScreen(dialog, width, 'the confirmation');
      await dialog.getByRole('button', { name: 'Remove logo', exact: true }).click();
      await editor
        .getByRole('status')
        .filter({ hasText: `The logo of ${CLIENT.userName} has been removed.` })
        .waitFor();

      const reset = await clientNavbar(client);
      expect(reset.background).toBe(TEAL);
      expect(reset.logo).toBe(before.logo);
      expect(reset.decoded).toBe(true);

      // Closing gives the focus back to the row's Branding button.
      await editor.getByRole('button', { name: `Close the branding of ${CLIENT.userName}` }).click();
      await editor.waitFor({ state: 'detached' });
      expect(await admin.evaluate(() => document.activeElement?.textContent)).toBe(`Branding of ${CLIENT.userName}`);
      expect(adminProblems).toEqual([]);
    },
  );
});

test("a row menu of the users page opens that user's branding: /admin/branding?user=", async () => {
  const admin = await newPage({ width: 1366, height: 768 }, ADMIN.userName);
  const problems = collectProblems(admin);
  await admin.goto('/en/admin/users');
  await waitForHydration(admin);
  const row = admin.locator('tbody tr', { has: admin.getByRole('rowheader', { name: CLIENT.userName, exact: true }) });
  await row.locator('details.row-menu summary').click();
  await row.getByRole('link', { name: `Branding of ${CLIENT.userName}` }).click();
  await admin.waitForURL((url) => url.pathname === '/en/admin/branding' && url.searchParams.get('user') === CLIENT.userName);
  const editor = admin.getByRole('region', { name: `Branding of ${CLIENT.userName}` });
  await editor.waitFor();
  await editor.getByText('Current colour: the default one (#30B7BB).').waitFor();
  // The sub-navigation marks the branding page as the current one.
  const current = admin.getByRole('navigation', { name: 'Sections of the administration' }).locator('[aria-current="page"]');
  expect(await current.allInnerTexts()).toEqual(['Branding']);
  expect(problems).toEqual([]);
});

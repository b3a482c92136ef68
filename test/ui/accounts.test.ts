// Accounts that run themselves, without JavaScript, on the app in this process
// (docs/decisions/047), whose e-mails go to a real SMTP server: the invited user accepts with
// plain posts; a user who forgot their password asks for a link and sets a new one, which ends
// their other sessions; an expired link gets its clear page; a user changes their e-mail address
// from the profile and confirms it from the new one. In Spanish, every page read from the
// server's HTML. The same with JavaScript, the layout at 390 px and axe-core are
// test/e2e/accounts.test.ts's.
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, test } from 'vitest';
import { accountsSite, adminToken, linkIn, mailsTo, type Site } from '../account-links/setup.ts';
import { plainBrowser, textOf, type PlainBrowser, type PlainPage } from '../helpers/plain-browser.ts';
import type { ReceivedMail } from '../helpers/smtp.ts';
import { scaled } from '../helpers/time-scale.ts';
import { DEFAULT_PASSWORD } from '../helpers/users.ts';

const NEW_PASSWORD = 'a brand new password';

/** The `count`-th e-mail to an address, once what is queued has been sent. */
async function mailTo(site: Site, address: string, count = 1): Promise<ReceivedMail> {
  await site.mail.flush();
  await expect.poll(() => mailsTo(site, address).length).toBeGreaterThanOrEqual(count);
  return mailsTo(site, address)[count - 1]!;
}

const h1 = (page: PlainPage) => textOf(page.document.querySelector('main h1'));
const screen = (page: PlainPage) => within(page.document.body);

/** Types into the field labelled `label`. */
function fill(page: PlainPage, label: string, value: string, scope: HTMLElement = page.document.body): void {
  (within(scope).getByLabelText(label) as HTMLInputElement).value = value;
}

/** Presses the button named `name` (of `scope`, the page by default). */
function press(browser: PlainBrowser, page: PlainPage, name: string, scope: HTMLElement = page.document.body): Promise<PlainPage> {
  return browser.submit(page, within(scope).getByRole('button', { name }) as HTMLButtonElement);
}

/** Opens an e-mailed link as a mail program does: its token leaves the address bar (it moves into a cookie). */
async function openLink(browser: PlainBrowser, link: string): Promise<PlainPage> {
  const page = await browser.open(link);
  expect(page.url.pathname).toBe(link.split('?')[0]);
  expect(page.url.search).toBe('');
  return page;
}

/** Fills the two password fields of a link's page and sends it. */
function chooseNewPassword(browser: PlainBrowser, page: PlainPage, submit: string, repeat = NEW_PASSWORD): Promise<PlainPage> {
  fill(page, 'Contraseña nueva', NEW_PASSWORD);
  fill(page, 'Repite la contraseña nueva', repeat);
  return press(browser, page, submit);
}

test('without JavaScript, in Spanish, the invited user accepts with plain posts', { timeout: scaled(30_000) }, async () => {
  const site = await accountsSite();
  const token = await adminToken(site);
  const res = await request(site.app).post('/api/admin/users').set('Authorization', `Bearer ${token}`).send({
    userName: 'nico.invited',
    name: 'Nico',
    lastName: 'Invitado',
    role: 'CONS',
    email: 'nico@example.com',
    invite: true,
    locale: 'es',
  });
  expect(res.status, res.text).toBe(201);
  const mail = await mailTo(site, 'nico@example.com');
  expect(mail.subject).toBe('Te han invitado a Acme');
  const browser = plainBrowser(site.app);
  let page = await openLink(browser, linkIn(mail));
  expect(h1(page)).toBe('Te damos la bienvenida');
  // A mismatch comes back as the page with the error (422), then the real thing.
  page = await chooseNewPassword(browser, page, 'Guardar y entrar', 'otra cosa distinta');
  expect(page.status).toBe(422);
  expect(textOf(page.document.querySelector('main'))).toContain('Las dos contraseñas nuevas no coinciden.');
  page = await chooseNewPassword(browser, page, 'Guardar y entrar');
  expect(page.url.pathname).toBe('/expert');
  expect(textOf(page.document.querySelector('.navbar-user'))).toContain('Nico');
});

test(
  'without JavaScript, in Spanish, a forgotten password: from the login page to a new password, the old sessions ended, the link then used',
  { timeout: scaled(30_000) },
  async () => {
    const person = { userName: 'reset-nojs', role: 'ORG' as const, name: 'Raúl', lastName: 'Sin Script', email: 'reset-nojs@example.com' };
    const site = await accountsSite({ users: [person] });
    // A session elsewhere, with the old password: it ends with the reset.
    const elsewhere = plainBrowser(site.app);
    await elsewhere.signIn(person.userName, DEFAULT_PASSWORD, '/login');
    const browser = plainBrowser(site.app);
    let page = await browser.open('/login');
    page = await browser.follow(page, screen(page).getByRole('link', { name: '¿Has olvidado tu contraseña?' }));
    expect(page.url.pathname).toBe('/forgotPassword');
    expect(h1(page)).toBe('¿Has olvidado tu contraseña?');
    fill(page, 'Nombre de usuario o correo electrónico', person.email);
    page = await press(browser, page, 'Enviarme un enlace');
    expect(screen(page).getAllByRole('status').map(textOf).join(' ')).toContain('Si lo que has escrito corresponde a una cuenta');

    const link = linkIn(await mailTo(site, person.email));
    expect(link.startsWith('/resetPassword?token=')).toBe(true);
    page = await openLink(browser, link);
    expect(h1(page)).toBe('Elige una contraseña nueva');
    page = await chooseNewPassword(browser, page, 'Guardar la contraseña nueva');
    expect(page.url.pathname).toBe('/login');
    expect(screen(page).getAllByRole('status').map(textOf).join(' ')).toContain(
      'Tu contraseña ha cambiado y se han cerrado todas tus sesiones.',
    );

    // The session elsewhere has ended: its next page is the login page.
    expect((await elsewhere.open('/profile')).url.pathname).toBe('/login');
    // The new password signs in.
    await browser.signIn(person.userName, NEW_PASSWORD, '/login');
    // The link again: already used, with the way to ask for a new one.
    page = await openLink(plainBrowser(site.app), link);
    expect(h1(page)).toBe('Este enlace ya se ha usado');
    expect(screen(page).getByRole('link', { name: 'Pedir un enlace nuevo' })).toBeTruthy();
  },
);

test('without JavaScript an expired reset link is refused with a clear page, in both locales', { timeout: scaled(30_000) }, async () => {
  const person = { userName: 'expired', role: 'CLI' as const, name: 'Eva', lastName: 'Tarde', email: 'expired@example.com' };
  const site = await accountsSite({ users: [person] });
  const asker = plainBrowser(site.app);
  const page = await asker.open('/forgotPassword');
  fill(page, 'Nombre de usuario o correo electrónico', person.userName);
  await press(asker, page, 'Enviarme un enlace');
  const link = linkIn(await mailTo(site, person.email));
  // An hour and more later.
  await site.db.k
    .updateTable('account_links')
    .set({ expires_at: Date.now() - 1000 })
    .where('user_name', '=', person.userName)
    .execute();
  for (const [path, title, text] of [
    [link, 'Este enlace ha caducado', 'Los enlaces para restablecer la contraseña valen una hora.'],
    [`/en${link}`, 'This link has expired', 'Password-reset links work for one hour.'],
  ] as const) {
    const shown = await plainBrowser(site.app).open(path);
    expect(shown.status).toBe(410);
    expect(shown.url.search).toBe('');
    expect(h1(shown)).toBe(title);
    expect(textOf(shown.document.querySelector('main'))).toContain(text);
  }
});

test(
  'without JavaScript, in Spanish, a change of e-mail address: asked on the profile, confirmed from the new address',
  { timeout: scaled(30_000) },
  async () => {
    const person = { userName: 'mail-nojs', role: 'CONS' as const, name: 'Mario', lastName: 'Sin Script', email: 'mail-nojs@example.com' };
    const site = await accountsSite({ users: [person] });
    const newAddress = `${person.userName}.new@example.com`;
    const browser = plainBrowser(site.app);
    await browser.signIn(person.userName, DEFAULT_PASSWORD, '/login');
    let page = await browser.open('/profile');
    const section = () => screen(page).getByRole('region', { name: 'Dirección de correo' });
    expect(textOf(section())).toContain(person.email);
    // A wrong current password first: refused, nothing sent.
    fill(page, 'Nueva dirección de correo', newAddress, section());
    fill(page, 'Tu contraseña actual', 'not my password', section());
    page = await press(browser, page, 'Enviar un enlace de confirmación', section());
    expect(section().querySelector('#email-currentPassword-error')).toBeTruthy();
    fill(page, 'Nueva dirección de correo', newAddress, section());
    fill(page, 'Tu contraseña actual', DEFAULT_PASSWORD, section());
    page = await press(browser, page, 'Enviar un enlace de confirmación', section());
    // Announced: the link went to the new address, and nothing changes until it is opened.
    const sent = within(section())
      .getAllByRole('status')
      .map(textOf)
      .find((text) => text.includes(`Hemos enviado un enlace a ${newAddress}.`));
    expect(sent).toContain('hasta entonces tu cuenta conserva la dirección actual.');

    // The old address is told; the new one gets the link.
    expect((await mailTo(site, person.email)).text).toContain(newAddress);
    page = await openLink(browser, linkIn(await mailTo(site, newAddress)));
    expect(h1(page)).toBe('Confirma tu nueva dirección de correo');
    expect(textOf(page.document.querySelector('main'))).toContain(newAddress);
    page = await press(browser, page, 'Confirmar la dirección');
    expect(page.url.pathname).toBe('/profile');
    expect(within(section()).getAllByRole('status').map(textOf).join(' ')).toContain('Tu dirección de correo ha cambiado.');
    expect(within(section()).getByText(newAddress)).toBeTruthy();
    // And the old address is told it changed.
    expect((await mailTo(site, person.email, 2)).text).toContain(newAddress);
  },
);

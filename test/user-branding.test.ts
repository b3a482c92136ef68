import request from 'supertest';
import { expect, test } from 'vitest';
import { readableTextColor } from '../shared/branding.ts';
import { createUser } from '../server/users/users.ts';
import { BRANDING_CACHE_MS, embeddedBranding } from '../server/user-branding/embedded.ts';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { loadBrand } from '../server/brand/brand.ts';

const PASSWORD = 'correct horse battery';
/** The default logo: brand/'s variant for the teal navbar (dark ink). */
const DEFAULT_LOGO = loadBrand().page.logos.light;
/** The navbar's default colour: the brand's primary one. */
const PRIMARY = loadBrand().colors.primary;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 7)]);

async function setup(deps = {}) {
  const { app, db } = await createTestApp(undefined, deps);
  await createUser(db, { userName: 'Acme', password: PASSWORD, role: 'CLI', name: 'Acme', lastName: 'Corp' });
  await createUser(db, { userName: 'ngo', password: PASSWORD, role: 'ORG', name: 'Ngo', lastName: 'Org' });
  await createUser(db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'Root', lastName: 'Admin' });
  const cookie = async (identifier: string) => {
    const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: PASSWORD });
    return ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('auth._token.local='))!
      .split(';')[0]!;
  };
  return { app, db, cookie };
}

test('the CLI user’s branding colour and logo are in the first paint of /client, in every locale form', async () => {
  const { app, db, cookie } = await setup();
  await embeddedBranding(db, { defaultColor: PRIMARY }).setBranding('acme', {
    color: '#1d4ed8',
    logo: '/api/branding-logos/0123456789abcdef0123456789abcdef.png',
  });
  const acme = await cookie('acme');
  for (const path of ['/client', '/es/client', '/en/client']) {
    const res = await request(app).get(path).set('Cookie', acme);
    expect(res.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(
      String(res.headers['content-security-policy'])
        .split(';')
        .find((d) => d.startsWith('style-src'))!,
    )![1];
    expect(res.text).toContain(`<style id="__BRANDING__" nonce="${nonce}">html:root{--navbar-bg:#1d4ed8;--navbar-fg:#ffffff}</style>`);
    expect(res.text).toContain('<img src="/api/branding-logos/0123456789abcdef0123456789abcdef.png" alt="" width="36" height="36"/>');
  }
});

test('branding applies on /organization too, and not on other pages', async () => {
  const { app, db, cookie } = await setup();
  await embeddedBranding(db, { defaultColor: PRIMARY }).setBranding('ngo', { color: '#ffcc00' });
  const ngo = await cookie('ngo');
  const area = await request(app).get('/en/organization').set('Cookie', ngo);
  expect(area.text).toContain('--navbar-bg:#ffcc00;--navbar-fg:#062326');
  expect(area.text).toContain(`<img src="${DEFAULT_LOGO}"`);
  const profile = await request(app).get('/en/profile').set('Cookie', ngo);
  expect(profile.text).not.toContain('__BRANDING__');
});

test('without a branding record the navbar is teal with the default logo', async () => {
  const { app, cookie } = await setup();
  const res = await request(app)
    .get('/client')
    .set('Cookie', await cookie('acme'));
  expect(res.text).not.toContain('__BRANDING__');
  expect(res.text).toContain(`<img src="${DEFAULT_LOGO}"`);
});

// That the defaults come at BRANDING_TIMEOUT_MS, not before, is proven on fake time in user-branding-timeout.test.ts.
test('a branding source that never answers does not hold the page: it is served with the defaults', async () => {
  const { app, cookie } = await setup({ branding: { getBranding: () => new Promise(() => {}) } });
  const acme = await cookie('acme');
  const res = await request(app).get('/client').set('Cookie', acme);
  expect(res.status).toBe(200);
  expect(res.text).not.toContain('__BRANDING__');
  expect(res.text).toContain(`<img src="${DEFAULT_LOGO}"`);
});

test('a failing branding source gives the defaults, the page still renders', async () => {
  const { app, cookie } = await setup({ branding: { getBranding: () => Promise.reject(new Error('down')) } });
  const res = await request(app)
    .get('/client')
    .set('Cookie', await cookie('acme'));
  expect(res.status).toBe(200);
  expect(res.text).toContain(`<img src="${DEFAULT_LOGO}"`);
});

test('a branding source cannot inject CSS or foreign logos', async () => {
  const { app, cookie } = await setup({
    branding: { getBranding: async () => ({ color: 'red;background:url(//evil)', logo: 'https://evil.example/x.png' }) },
  });
  const res = await request(app)
    .get('/client')
    .set('Cookie', await cookie('acme'));
  expect(res.text).not.toContain('evil');
  expect(res.text).not.toContain('__BRANDING__');
});

test('the admin edits branding of CLI/ORG users only, with a hex colour and a checked logo', async () => {
  const { app, cookie } = await setup();
  const root = await cookie('root');
  const api = (method: 'get' | 'put' | 'delete', path: string) =>
    request(app)[method](`/api/admin/branding/${path}`).set('Cookie', root).set('Origin', ORIGIN);
  expect((await api('put', 'acme').send({ color: 'red;x' })).status).toBe(400);
  expect((await api('put', 'root').send({ color: '#123456' })).status).toBe(409);
  const colour = await api('put', 'acme').send({ color: '#123456' });
  expect(colour.body.branding).toEqual({ color: '#123456', logo: null });
  const bad = await api('put', 'acme/logo').set('Content-Type', 'image/png').send(Buffer.from('<svg onload=alert(1)>'));
  expect(bad.status).toBe(415);
  const logo = await api('put', 'acme/logo').set('Content-Type', 'image/png').send(PNG);
  expect(logo.body.branding.logo).toMatch(/^\/api\/branding-logos\/[a-f0-9]{32}\.png$/);
  const served = await request(app).get(logo.body.branding.logo);
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  // Effective on the next page view.
  const page = await request(app)
    .get('/client')
    .set('Cookie', await cookie('acme'));
  expect(page.text).toContain('--navbar-bg:#123456');
  expect(page.text).toContain(`<img src="${logo.body.branding.logo}"`);
  const removed = await api('delete', 'acme/logo');
  expect(removed.body.branding).toEqual({ color: '#123456', logo: null });
});

test.each(['CLI', 'ORG', 'CONS'])('a %s user cannot edit branding (403)', async (role) => {
  const { app, db } = await setup();
  await createUser(db, { userName: 'someone', password: PASSWORD, role: role as 'CLI', name: 'S', lastName: 'O' });
  const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'someone', password: PASSWORD });
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  expect(
    (await request(app).put('/api/admin/branding/acme').set('Cookie', cookie).set('Origin', ORIGIN).send({ color: '#000000' })).status,
  ).toBe(403);
});

test('the navbar text stays readable on any branding colour', () => {
  expect(readableTextColor('#000000')).toBe('#ffffff');
  expect(readableTextColor('#ffffff')).toBe('#062326');
  expect(readableTextColor('#30B7BB')).toBe('#062326');
  expect(readableTextColor('#1d4ed8')).toBe('#ffffff');
});

test('embedded branding is read from the database once per user within BRANDING_CACHE_MS, not on every page', async () => {
  const { db } = await setup();
  let now = 1_000;
  const store = embeddedBranding(db, { defaultColor: PRIMARY, now: () => now });
  await store.setBranding('acme', { color: '#1d4ed8' });
  expect(await store.getBranding('acme')).toMatchObject({ color: '#1d4ed8' });
  // Another process (a second worker) changes it: this one answers from memory for a while…
  await embeddedBranding(db, { defaultColor: PRIMARY }).setBranding('acme', { color: '#ffcc00' });
  now += BRANDING_CACHE_MS - 1;
  expect(await store.getBranding('acme')).toMatchObject({ color: '#1d4ed8' });
  // …then reads it again.
  now += 2;
  expect(await store.getBranding('acme')).toMatchObject({ color: '#ffcc00' });
});

test('a branding change made through this process shows at once', async () => {
  const { db } = await setup();
  const store = embeddedBranding(db, { defaultColor: PRIMARY });
  expect(await store.getBranding('acme')).toBeNull();
  await store.setBranding('acme', { color: '#1d4ed8' });
  expect(await store.getBranding('acme')).toMatchObject({ color: '#1d4ed8' });
  // A user name in another case is the same user (the database compares without case).
  await store.setBranding('ACME', { color: '#ffcc00' });
  expect(await store.getBranding('acme')).toMatchObject({ color: '#ffcc00' });
  await store.setBranding('acme', { color: null });
  expect(await store.getBranding('Acme')).toBeNull();
});

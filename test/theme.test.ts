// Dark mode on the server (docs/decisions/023): the `theme` cookie becomes <html data-theme>
// before the first byte of the page, the switch works without JavaScript (POST /theme, 303 back
// to a safe local path), and the theme stays outside the render cache's markup.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createTestApp, ORIGIN, testApp } from './helpers/app.ts';

const htmlTag = (text: string) => /<html[^>]*>/.exec(text)?.[0] ?? '';
/** The document from React's root on: the part the render cache keeps (nonces aside). */
const reactPart = (text: string) => text.slice(text.indexOf('<div id="root">')).replace(/nonce="[^"]+"/g, '');

describe('the theme cookie decides <html data-theme> of the server-rendered page', () => {
  test.each([
    { cookie: 'theme=dark', html: '<html lang="en" data-theme="dark">' },
    { cookie: 'theme=light', html: '<html lang="en" data-theme="light">' },
    { cookie: null, html: '<html lang="en">' },
    // Garbage is no choice: the system's theme.
    { cookie: 'theme=blue', html: '<html lang="en">' },
    { cookie: 'theme=DARK', html: '<html lang="en">' },
    { cookie: 'theme=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', html: '<html lang="en">' },
    { cookie: 'theme=', html: '<html lang="en">' },
  ])('$cookie → $html', async ({ cookie, html }) => {
    const app = await testApp();
    const req = request(app).get('/en/blog');
    const res = await (cookie ? req.set('Cookie', cookie) : req);
    expect(res.status).toBe(200);
    expect(htmlTag(res.text)).toBe(html);
  });
});

test('every page says it supports both colour schemes, the 404 page too', async () => {
  const app = await testApp();
  for (const path of ['/', '/en/Contact', '/en/does-not-exist']) {
    const res = await request(app).get(path).set('Cookie', 'theme=dark');
    expect(res.text).toContain('<meta name="color-scheme" content="light dark">');
    expect(htmlTag(res.text)).toContain('data-theme="dark"');
  }
});

test('the theme is outside the cached markup: one cache entry serves every theme, only <html> differs', async () => {
  const { app, renderCache } = await createTestApp();
  const answers = [];
  for (const cookie of ['theme=dark', 'theme=light', '', 'theme=dark']) {
    answers.push(await request(app).get('/en/blog').set('Cookie', cookie).set('Accept-Encoding', 'identity'));
  }
  expect(renderCache!.stats()).toMatchObject({ entries: 1, hits: 2 });
  expect(answers.map((res) => htmlTag(res.text))).toEqual([
    '<html lang="en" data-theme="dark">',
    '<html lang="en" data-theme="light">',
    '<html lang="en">',
    '<html lang="en" data-theme="dark">',
  ]);
  for (const res of answers) expect(reactPart(res.text)).toBe(reactPart(answers[0]!.text));
});

describe('POST /theme: the switch without JavaScript', () => {
  test('the choice is remembered for a year in a cookie the page may read (SameSite=Lax), then 303 back to the page', async () => {
    const app = await testApp();
    const res = await request(app)
      .post('/en/theme')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ theme: 'dark', redirect: '/en/blog?page=2' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/en/blog?page=2');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^theme=dark; Max-Age=31536000; Path=\/; Expires=[^;]+; SameSite=Lax$/);
    expect(cookie).not.toMatch(/HttpOnly/i);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  test('the next page is served in the theme chosen', async () => {
    const app = await testApp();
    const agent = request.agent(app);
    await agent.post('/theme').set('Origin', ORIGIN).type('form').send({ theme: 'dark', redirect: '/Contact' });
    expect(htmlTag((await agent.get('/Contact')).text)).toBe('<html lang="es" data-theme="dark">');
    await agent.post('/theme').set('Origin', ORIGIN).type('form').send({ theme: 'light', redirect: '/Contact' });
    expect(htmlTag((await agent.get('/Contact')).text)).toBe('<html lang="es" data-theme="light">');
  });

  test('"system" forgets the choice: the cookie is removed', async () => {
    const app = await testApp();
    const res = await request(app).post('/theme').set('Origin', ORIGIN).type('form').send({ theme: 'system', redirect: '/blog' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/blog');
    expect(String(res.headers['set-cookie'])).toMatch(/^theme=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax$/);
  });

  const HOSTILE = [
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    'javascript:alert(1)',
    ' /blog',
    '/blog\r\nLocation: https://evil.example',
    '',
    undefined,
  ];
  test.each(HOSTILE.flatMap((redirect) => ['/theme', '/es/theme', '/en/theme'].map((path) => ({ path, redirect }))))(
    'a hostile redirect target is ignored: $path with $redirect goes to its language’s home',
    async ({ path, redirect }) => {
      const app = await testApp();
      const res = await request(app)
        .post(path)
        .set('Origin', ORIGIN)
        .type('form')
        .send(redirect === undefined ? { theme: 'light' } : { theme: 'light', redirect });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe({ '/theme': '/', '/es/theme': '/es', '/en/theme': '/en' }[path]);
    },
  );

  test.each(['blue', '', 'DARK', 'dark ', undefined])('an unknown theme (%s) is a 400 that names it, and sets nothing', async (theme) => {
    const app = await testApp();
    const res = await request(app)
      .post('/en/theme')
      .set('Origin', ORIGIN)
      .type('form')
      .send(theme === undefined ? {} : { theme });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`Unknown theme ${JSON.stringify(theme ?? '')}: light, dark or system`);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('with Accept: application/json the answer is JSON (no redirect)', async () => {
    const app = await testApp();
    const res = await request(app)
      .post('/theme')
      .set('Origin', ORIGIN)
      .set('Accept', 'application/json')
      .type('form')
      .send({ theme: 'dark' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, theme: 'dark' });
    const bad = await request(app).post('/theme').set('Origin', ORIGIN).set('Accept', 'application/json').type('form').send({ theme: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: 'bad_theme', message: 'Unknown theme "x": light, dark or system' } });
  });

  test('a cross-site POST /theme is refused like every other form (CSRF)', async () => {
    const app = await testApp();
    const res = await request(app).post('/theme').set('Origin', 'https://evil.example').type('form').send({ theme: 'dark' });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the styleguide', () => {
  test('outside production /dev/styleguide shows every component in both themes with the real stylesheet', async () => {
    const app = await testApp();
    const res = await request(app).get('/dev/styleguide');
    expect(res.status).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.text).toMatch(/<link rel="stylesheet" href="\/assets\/entry-[\w-]+\.css">/);
    expect(res.text).toContain('<div class="sg-theme" data-theme="light">');
    expect(res.text).toContain('<div class="sg-theme" data-theme="dark">');
    for (const component of [
      'navbar',
      'footer',
      'button-primary',
      'button-small',
      'field-error',
      'form-error',
      'state-badge',
      'card',
      'data-table',
      'pager',
      'tag-list',
      'alert-dialog',
      'theme-switch',
    ]) {
      expect(res.text, component).toContain(component);
    }
    // Its own layout in a nonce'd <style>: the CSP allows no other.
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))![1];
    expect(res.text).toContain(`<style nonce="${nonce}">`);
    expect((await request(app).get('/dev/styleguide?locale=es')).text).toContain('Cambiar al tema oscuro');
  });

  test('in production /dev/styleguide is the 404 page', async () => {
    const { app } = await createTestApp({ NODE_ENV: 'production' });
    const res = await request(app).get('/dev/styleguide');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('sg-theme');
  });
});

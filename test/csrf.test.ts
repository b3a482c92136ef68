// The CSRF check (server/http/same-origin.ts, docs/decisions/004-csrf.md, 048): an unsafe request
// must come from the site's own pages; on /api only the session cookie asks for that proof, and
// the refusal there is the API's JSON Error whatever the client accepts.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from './helpers/users.ts';

const EVIL_ORIGIN = 'https://evil.example';

let app: Express;
let token: string;
let session: string;

beforeAll(async () => {
  const site = await createTestApp();
  app = site.app;
  await addUser(site.db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Client' });
  token = await loginToken(app, 'carla');
  const signedIn = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'carla', password: DEFAULT_PASSWORD });
  session = String(signedIn.headers['set-cookie']).split(';')[0]!;
  expect(session).toMatch(/^auth\._token\.local=/);
});

test.each([undefined, 'text/html', 'text/plain', '*/*', 'text/html,application/xhtml+xml;q=0.9', 'application/json'])(
  'a cross-site unsafe /api request with the session cookie and Accept %s answers 403 as the JSON Error',
  async (accept) => {
    for (const origin of [EVIL_ORIGIN, undefined]) {
      let req = request(app).patch('/api/me').set('Cookie', session);
      if (accept) req = req.set('Accept', accept);
      if (origin) req = req.set('Origin', origin);
      const res = await req.send({ name: 'Hacked', lastName: 'Name' });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.error).toMatchObject({ code: 'cross_site_request' });
      expect(typeof res.body.error.message).toBe('string');
    }
  },
);

test.each(['theme=dark', 'cookie_consent=necessary', 'i18n_redirected=en', 'theme=dark; unrelated=1'])(
  'an /api request whose only cookies are not the session (%s) needs no Origin: they authorise nothing',
  async (cookie) => {
    const login = await request(app).post('/api/login').set('Cookie', cookie).send({ identifier: 'carla', password: DEFAULT_PASSWORD });
    expect(login.status).toBe(200);
    const save = await request(app)
      .patch('/api/me')
      .set('Cookie', cookie)
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'Carla', lastName: 'Client' });
    expect(save.status).toBe(200);
  },
);

test('the session cookie among others still asks for the Origin on /api, even a session cookie that is not a live one', async () => {
  for (const cookie of [`theme=dark; ${session}`, 'theme=dark; auth._token.local=not-a-sealed-cookie']) {
    const res = await request(app).post('/api/login').set('Cookie', cookie).send({ identifier: 'carla', password: DEFAULT_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_site_request');
  }
  const own = await request(app).patch('/api/me').set('Cookie', session).set('Origin', ORIGIN).send({ name: 'Carla', lastName: 'Client' });
  expect(own.status).toBe(200);
});

test('a page form post needs its Origin whatever cookies it carries, and a browser is answered in plain text', async () => {
  for (const cookie of [undefined, 'theme=dark']) {
    let req = request(app).post('/en/login').type('form').set('Accept', 'text/html');
    if (cookie) req = req.set('Cookie', cookie);
    const res = await req.send({ identifier: 'carla', password: DEFAULT_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  }
});

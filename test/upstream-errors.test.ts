// An external API (API_URL) as the specification knows it: a login call that answers a token, and
// "no user-fetch call" (docs/specification.md §13.1). My Profile and its PDF are made from what the sign-in gave;
// what the upstream says when it fails stays in the server's log, and the page says the site's
// own words in its language (docs/specification.md §11.8, §13.1).
import express, { type Request, type Response } from 'express';
import { SignJWT } from 'jose';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeEach, expect, test } from 'vitest';
import { errorCodesWithWords, UPSTREAM_ERROR } from '../server/http/upstream.ts';
import { LOCALE_CODES } from '../shared/locales.ts';
import { MESSAGES } from './helpers/render-ui.tsx';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { capturingLogger } from './helpers/log.ts';
import { parsePage, textOf } from './helpers/plain-browser.ts';
import { pdfText } from './pdf/pdf-text.ts';

const SECRET = 'upstream-shared-secret-that-is-long-enough';
const key = new TextEncoder().encode(SECRET);

/** What the upstream was asked, `METHOD /path`. */
const asked: string[] = [];
/** How the upstream answers what it offers besides the login (`METHOD /path` below /v1); unset: it lacks it (Express's own 404). */
const answers = new Map<string, (req: Request, res: Response) => void>();

// An Express API with the contract's login and nothing else unless a test says so: what it lacks
// answers Express's 404 page, "Cannot GET /v1/admin/users".
const api = express();
api.use(express.json());
api.use((req, _res, next) => {
  asked.push(`${req.method} ${req.path}`);
  next();
});
api.post('/v1/login', async (req, res) => {
  const userName = String((req.body as { identifier?: unknown }).identifier);
  const role = userName === 'boss' ? 'ADMIN' : 'CLI';
  const token = await new SignJWT({ name: 'Upa', lastName: 'Stream', userName, role, avatar: null, scope: ['reports:read'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(key);
  res.json({ token });
});
api.use((req, res, next) => {
  const answer = answers.get(`${req.method} ${req.path.replace(/^\/v1/, '')}`);
  if (answer) answer(req, res);
  else next();
});
const upstream = api.listen(0, '127.0.0.1');
await new Promise((resolve) => upstream.once('listening', resolve));
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
const API_URL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;

const log = capturingLogger();
const { app } = await createTestApp({ API_URL, API_JWT_SECRET: SECRET }, { logger: log.logger });

beforeEach(() => {
  asked.length = 0;
  answers.clear();
  log.lines.length = 0;
});

async function signIn(identifier: string): Promise<string> {
  const res = await request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier, password: 'any' });
  return String(res.headers['set-cookie']).match(/auth\._token\.local=[^;]+/)![0];
}

const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

test.each([
  { path: '/profile', heading: 'Mi perfil' },
  { path: '/en/profile', heading: 'My profile' },
])('$path is made from what the sign-in gave, with no GET {api}/me (no user-fetch call exists)', async ({ path, heading }) => {
  const cookie = await signIn('carla');
  asked.length = 0;
  const res = await request(app).get(path).set('Cookie', cookie);
  expect(res.status).toBe(200);
  const document = parsePage(res.text);
  expect(textOf(document.querySelector('main h1'))).toBe(heading);
  expect(textOf(document.querySelector('main dl'))).toContain('carla');
  expect((document.querySelector('input[name="name"]') as HTMLInputElement | null)?.value).toBe('Upa');
  expect(asked).toEqual([]);
});

test('the profile PDF is made from what the sign-in gave, with no GET {api}/me', async () => {
  const cookie = await signIn('carla');
  asked.length = 0;
  const res = await binary(request(app).get('/en/documents/my-profile.pdf').set('Cookie', cookie));
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const text = pdfText(res.body as Buffer);
  expect(text).toContain('carla');
  expect(text).toContain('Upa');
  expect(text).toContain('reports:read');
  expect(asked).toEqual([]);
});

// How an upstream fails the users' list of the admin console, and what the page says instead.
const FAILURES = [
  { what: 'lacks the endpoint (Express: 404 "Cannot GET /v1/admin/users")', answer: undefined, status: 502, key: 'upstream' },
  {
    what: 'answers a JSON 404 in its own words',
    answer: (_req: Request, res: Response) =>
      void res.status(404).json({ error: { code: 'route_missing', message: 'Cannot GET /v1/admin/users' } }),
    status: 502,
    key: 'upstream',
    raw: 'Cannot GET /v1/admin/users',
  },
  {
    what: 'fails with a 500 that shows its internals',
    answer: (_req: Request, res: Response) =>
      void res.status(500).json({ error: { code: 'internal', message: 'TypeError: db is undefined at users.js:12' } }),
    status: 503,
    key: 'unavailable',
    raw: 'TypeError: db is undefined',
  },
  {
    what: 'cannot be reached (the connection drops)',
    answer: (req: Request) => void req.socket.destroy(),
    status: 503,
    key: 'unavailable',
  },
] as const;

test.each(LOCALE_CODES.flatMap((locale) => FAILURES.map((failure) => ({ locale, ...failure }))))(
  'when the API $what, /admin/users ($locale) is a $status page in the site’s words; what the API said is in the log',
  async ({ locale, answer, status, key: messageKey, ...failure }) => {
    if (answer) answers.set('GET /admin/users', answer);
    const cookie = await signIn('boss');
    const path = locale === 'es' ? '/admin/users' : `/${locale}/admin/users`;
    const res = await request(app).get(path).set('Cookie', cookie);
    expect(res.status).toBe(status);
    const document = parsePage(res.text);
    expect(textOf(document.querySelector('main h1'))).toBe((MESSAGES[locale].errors as Record<string, string>)[messageKey]);
    expect(res.text).not.toContain('Cannot GET');
    expect(res.text).not.toContain('The API answered');
    const raw = 'raw' in failure ? failure.raw : undefined;
    if (raw) {
      expect(res.text).not.toContain(raw);
      expect(log.lines.join('')).toContain(raw);
    }
    expect(log.lines.join('')).toContain('GET /admin/users');
  },
);

test.each(LOCALE_CODES)(
  'a profile form the API refuses in its own words (%s) says the site’s words for it and marks no field with the API’s text',
  async (locale) => {
    const prose = 'Names must be approved by HR first';
    answers.set(
      'PATCH /me',
      (_req, res) => void res.status(422).json({ error: { code: 'hr_policy', message: prose, fields: { name: prose } } }),
    );
    const cookie = await signIn('carla');
    const path = locale === 'es' ? '/profile' : `/${locale}/profile`;
    const res = await request(app)
      .post(path)
      .set('Origin', ORIGIN)
      .set('Cookie', cookie)
      .type('form')
      .send({ name: 'Ana', lastName: 'Pérez' });
    expect(res.status).toBe(422);
    expect(res.text).not.toContain(prose);
    const alert = parsePage(res.text).querySelector('.form-error[role="alert"]');
    expect(textOf(alert)).toBe((MESSAGES[locale].formErrors as Record<string, string>)[UPSTREAM_ERROR]);
    expect(log.lines.join('')).toContain(prose);
  },
);

test('the codes of an API’s refusals the site passes on are those it has words for: its forms’ and its screens’, not the error page’s', () => {
  const codes = errorCodesWithWords(MESSAGES.es);
  for (const code of ['wrong_current_password', 'invalid_request', 'self_lockout', UPSTREAM_ERROR])
    expect(codes.has(code), code).toBe(true);
  // The error page's own words (errors.notFound…) are not codes; nothing the site has no words for is one.
  for (const code of ['notFound', 'backHome', 'hr_policy', 'route_missing']) expect(codes.has(code), code).toBe(false);
});

test.each([
  {
    what: 'in its own words, with a code the site has words for',
    answer: {
      status: 409,
      body: { error: { code: 'userName_taken', message: 'Username already exists in LDAP', fields: { userName: 'Taken in LDAP' } } },
    },
    code: 'userName_taken',
    status: 409,
    raw: 'LDAP',
  },
  {
    what: 'with a code the site has no words for',
    answer: { status: 422, body: { error: { code: 'hr_policy', message: 'Names must be approved by HR first' } } },
    code: UPSTREAM_ERROR,
    status: 422,
    raw: 'approved by HR',
  },
  {
    what: 'with its stack',
    answer: { status: 500, body: { error: { code: 'internal', message: 'TypeError at db.js:12' } } },
    code: 'api_unavailable',
    status: 503,
    raw: 'TypeError',
  },
])(
  'an API refusal $what reaches the browser through /api as the contract’s error in the site’s terms, its words only in the log',
  async ({ answer, code, status, raw }) => {
    answers.set('POST /admin/users', (_req, res) => void res.status(answer.status).json(answer.body));
    const cookie = await signIn('boss');
    const res = await request(app).post('/api/admin/users').set('Origin', ORIGIN).set('Cookie', cookie).send({ userName: 'x' });
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((res.body as { error: { code: string } }).error.code).toBe(code);
    expect(res.text).not.toContain(raw);
    expect(log.lines.join('')).toContain(raw);
  },
);

test('what the API answers when it does not refuse passes through /api as it is', async () => {
  answers.set(
    'GET /admin/users',
    (_req, res) => void res.status(200).set('X-Upstream', 'yes').json({ items: [], total: 0, page: 1, pageSize: 20 }),
  );
  const cookie = await signIn('boss');
  const res = await request(app).get('/api/admin/users?page=1').set('Cookie', cookie);
  expect(res.status).toBe(200);
  expect(res.headers['x-upstream']).toBe('yes');
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.body).toEqual({ items: [], total: 0, page: 1, pageSize: 20 });
});

import { expect, test } from 'vitest';
import { loadBrand } from '../../server/brand/brand.ts';
import { createStrapiBranding, type StrapiBrandingOptions } from '../../server/cms/branding.ts';
import { createStrapiClient, type StrapiClientOptions } from '../../server/cms/client.ts';
import { captureLogger, fixture, LEAST_PRIVILEGE, sendJson, startFakeStrapi, type FakeHandler, type FakeStrapi } from './fake-strapi.ts';

const IDENTIFIER = 'site-service';
const PASSWORD = 'service-password-not-for-logs';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.c2lnbmF0dXJl';
const API_TOKEN = 'strapi-api-token';
const ACME = { color: '#1A2B3C', logo: '/cms/uploads/acme_logo_5f1e2d.png' };
/** The navbar's default colour: the brand's primary one (brand/brand.json). */
const PRIMARY = loadBrand().colors.primary;

/**
 * A least-privilege Strapi (the service account's role reads *-customs, nothing else; a
 * read-only API token) that signs the service account in and whose *-customs answers come
 * from `customs`.
 */
function strapiAnswering(customs: FakeHandler) {
  return startFakeStrapi(customs, {
    access: { ...LEAST_PRIVILEGE, users: { [IDENTIFIER]: { password: PASSWORD } }, tokens: { [API_TOKEN]: 'read-only' } },
  });
}

type Overrides = { client?: Partial<StrapiClientOptions>; branding?: Partial<StrapiBrandingOptions> };

function brandingFrom(cms: FakeStrapi, overrides: Overrides = {}) {
  const log = captureLogger();
  const client = createStrapiClient({ url: cms.url, identifier: IDENTIFIER, password: PASSWORD, logger: log.logger, ...overrides.client });
  const branding = createStrapiBranding({
    client,
    logger: log.logger,
    ...overrides.branding,
    defaultColor: overrides.branding?.defaultColor ?? PRIMARY,
  });
  return { branding, ...log };
}

test.each(['v4-customs', 'v5-customs', 'v5-customs-v4-format'])(
  'branding logs in with the service account, then reads {user}-customs with the jwt (%s answer)',
  async (name) => {
    const cms = await strapiAnswering((_req, res) => sendJson(res, 200, fixture(name)));
    const { branding } = brandingFrom(cms);
    expect(await branding.getBranding('ACME')).toEqual(ACME);
    const [login, read] = cms.received;
    expect(login).toMatchObject({ method: 'POST', path: '/api/auth/local' });
    expect(login?.headers.authorization).toBeUndefined();
    expect(JSON.parse(login?.body ?? '')).toEqual({ identifier: IDENTIFIER, password: PASSWORD });
    expect(read).toMatchObject({ method: 'GET', path: '/api/acme-customs' });
    expect(read?.query.get('populate')).toBe('*');
    expect(read?.headers.authorization).toBe(`Bearer ${cms.issuedJwts()[0]}`);
  },
);

test('the jwt of the service account is reused for the next user', async () => {
  const cms = await strapiAnswering((_req, res) => sendJson(res, 200, fixture('v5-customs')));
  const { branding } = brandingFrom(cms);
  await branding.getBranding('acme');
  await branding.getBranding('globex');
  expect(cms.logins()).toHaveLength(1);
  expect(cms.reads().map((r) => r.path)).toEqual(['/api/acme-customs', '/api/globex-customs']);
});

test('a 401 from the CMS causes exactly one new login, and the retried request is used', async () => {
  let refused = false;
  const cms = await strapiAnswering((_req, res) => {
    if (!refused) {
      refused = true;
      return sendJson(res, 401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid token' } });
    }
    sendJson(res, 200, fixture('v4-customs'));
  });
  const { branding } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toEqual(ACME);
  expect(cms.logins()).toHaveLength(2);
  expect(cms.reads()).toHaveLength(2);
});

test('a CMS that keeps answering 401 is not asked in a loop: one re-login, then the default branding', async () => {
  const cms = await strapiAnswering((_req, res) => sendJson(res, 401, { error: { status: 401 } }));
  const { branding, warnings } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toBeNull();
  expect(cms.logins()).toHaveLength(2);
  expect(cms.reads()).toHaveLength(2);
  expect(warnings()).toHaveLength(1);
});

test('with CMS_TOKEN the token is sent as Bearer and /api/auth/local is never called', async () => {
  const cms = await strapiAnswering((_req, res) => sendJson(res, 200, fixture('v5-customs')));
  const { branding } = brandingFrom(cms, { client: { token: API_TOKEN, identifier: undefined, password: undefined } });
  expect(await branding.getBranding('acme')).toEqual(ACME);
  expect(cms.logins()).toHaveLength(0);
  expect(cms.received[0]?.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
});

test('a CMS error (500) gives the default branding and one warning naming the reason', async () => {
  const cms = await strapiAnswering((_req, res) => sendJson(res, 500, { error: { status: 500, name: 'InternalServerError' } }));
  const { branding, warnings } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toBeNull();
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]).toMatchObject({ reason: 'status', status: 500, userName: 'acme' });
});

test('a CMS that answers after 3 s gives the default branding within the 1.5 s budget', async () => {
  const cms = await strapiAnswering(async (_req, res) => {
    await cms.delay(3000);
    sendJson(res, 200, fixture('v4-customs'));
  });
  const { branding, warnings } = brandingFrom(cms);
  // Had it waited for the answer, acme's branding would be here, not the defaults.
  expect(await branding.getBranding('acme')).toBeNull();
  expect(warnings().map((w) => w.reason)).toEqual(['timeout']);
});

test('the 1.5 s budget covers the login too: a slow login plus a slow read still ends in time', async () => {
  const cms = await startFakeStrapi(async (req, res) => {
    await cms.delay(1000);
    sendJson(res, 200, req.path === '/api/auth/local' ? { jwt: JWT } : fixture('v4-customs'));
  });
  const { branding, warnings } = brandingFrom(cms);
  // Each answer alone comes within the budget; both together do not.
  expect(await branding.getBranding('acme')).toBeNull();
  expect(warnings().map((w) => w.reason)).toEqual(['timeout']);
});

test('an answer that is not JSON gives the default branding and a warning naming malformed', async () => {
  const cms = await strapiAnswering((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('<html>Strapi</html>'));
  const { branding, warnings } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toBeNull();
  expect(warnings().map((w) => w.reason)).toEqual(['malformed']);
});

test('an answer with empty data gives the default branding and a warning naming empty', async () => {
  const cms = await strapiAnswering((_req, res) =>
    sendJson(res, 200, { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } }),
  );
  const { branding, warnings } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toBeNull();
  expect(warnings().map((w) => w.reason)).toEqual(['empty']);
});

test('a colour that is not hex is ignored: the CMS is not trusted with CSS', async () => {
  const answer = fixture('v5-customs') as { data: [{ colorNavbar: string }] };
  answer.data[0].colorNavbar = 'red;background:url(//evil)';
  const cms = await strapiAnswering((_req, res) => sendJson(res, 200, answer));
  const { branding, warnings } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toEqual({ color: PRIMARY, logo: ACME.logo });
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]?.msg).toMatch(/colorNavbar/);
});

test.each(['red', '#12345g', '#1234', '#fff;', ' #fff', 'expression(alert(1))', 'url(//evil)', 42])(
  'the colour %j alone is nothing usable: no branding',
  async (color) => {
    const cms = await strapiAnswering((_req, res) =>
      sendJson(res, 200, { data: [{ id: 1, documentId: 'c', colorNavbar: color, logoNavbar: null }] }),
    );
    expect(await brandingFrom(cms).branding.getBranding('acme')).toBeNull();
  },
);

test.each(['#abc', '#A1B2C3'])('a hex colour (%s) is used as it is', async (color) => {
  const cms = await strapiAnswering((_req, res) =>
    sendJson(res, 200, { data: [{ id: 1, documentId: 'c', colorNavbar: color, logoNavbar: null }] }),
  );
  expect(await brandingFrom(cms).branding.getBranding('acme')).toEqual({ color, logo: null });
});

test('a logo on a foreign host is ignored, and the colour still applies', async () => {
  const answer = fixture('v4-customs') as { data: [{ attributes: { logoNavbar: { data: { attributes: { url: string } } } } }] };
  answer.data[0].attributes.logoNavbar.data.attributes.url = 'https://evil.example/uploads/logo.png';
  const cms = await strapiAnswering((_req, res) => sendJson(res, 200, answer));
  const { branding, warnings } = brandingFrom(cms);
  expect(await branding.getBranding('acme')).toEqual({ color: '#1A2B3C', logo: null });
  expect(warnings()[0]?.msg).toMatch(/logoNavbar/);
});

test.each([
  [
    'on a media host (CMS_MEDIA_HOSTS) is shown from there',
    'https://res.cloudinary.com/acme/image/upload/v1/logo.png',
    'https://res.cloudinary.com/acme/image/upload/v1/logo.png',
  ],
  ['on an unknown host is refused: the default logo', 'https://evil.example/acme/logo.png', null],
  ['over http on a media host is refused: the default logo', 'http://res.cloudinary.com/acme/logo.png', null],
])('a logo from an upload provider %s', async (_case, url, logo) => {
  const cms = await strapiAnswering((_req, res) =>
    sendJson(res, 200, { data: [{ id: 1, documentId: 'c', colorNavbar: '#abc', logoNavbar: { url, provider: 'cloudinary' } }] }),
  );
  const { branding, warnings } = brandingFrom(cms, { branding: { mediaHosts: ['res.cloudinary.com'] } });
  expect(await branding.getBranding('acme')).toEqual({ color: '#abc', logo });
  expect(warnings().map((w) => w.msg)).toEqual(
    logo ? [] : [expect.stringMatching(/logoNavbar \(neither an upload of the CMS nor on CMS_MEDIA_HOSTS\)/)],
  );
});

test('an absolute logo URL on the CMS origin is served through the /cms proxy', async () => {
  const cms = await strapiAnswering((_req, res) =>
    sendJson(res, 200, { data: [{ id: 1, documentId: 'c', colorNavbar: null, logoNavbar: { url: `${cms.url}/uploads/acme.svg` } }] }),
  );
  expect(await brandingFrom(cms).branding.getBranding('acme')).toEqual({ color: PRIMARY, logo: '/cms/uploads/acme.svg' });
});

test('branding is cached per user: the second call makes no request, after the TTL it does', async () => {
  let clock = 1_000_000;
  const cms = await strapiAnswering((_req, res) => sendJson(res, 200, fixture('v5-customs')));
  const { branding } = brandingFrom(cms, { branding: { now: () => clock, ttlMs: 60_000 } });
  await branding.getBranding('acme');
  clock += 59_000;
  expect(await branding.getBranding('Acme')).toEqual(ACME);
  expect(cms.reads()).toHaveLength(1);
  clock += 2000;
  expect(await branding.getBranding('acme')).toEqual(ACME);
  expect(cms.reads()).toHaveLength(2);
});

test('a failure is cached for a shorter time, so a CMS that is down is not asked on every page', async () => {
  let clock = 1_000_000;
  const cms = await strapiAnswering((_req, res) => sendJson(res, 503, {}));
  const { branding, warnings } = brandingFrom(cms, { branding: { now: () => clock, failureTtlMs: 10_000 } });
  await branding.getBranding('acme');
  clock += 9000;
  expect(await branding.getBranding('acme')).toBeNull();
  expect(cms.reads()).toHaveLength(1);
  expect(warnings()).toHaveLength(1);
  clock += 2000;
  await branding.getBranding('acme');
  expect(cms.reads()).toHaveLength(2);
});

test('a user without a branding collection (404) is an answer, kept for the full TTL', async () => {
  let clock = 1_000_000;
  const cms = await strapiAnswering((_req, res) => sendJson(res, 404, { data: null, error: { status: 404, name: 'NotFoundError' } }));
  const { branding, warnings } = brandingFrom(cms, { branding: { now: () => clock } });
  expect(await branding.getBranding('nobrand')).toBeNull();
  clock += 30_000;
  expect(await branding.getBranding('nobrand')).toBeNull();
  expect(cms.reads()).toHaveLength(1);
  expect(warnings()).toHaveLength(1);
});

test('simultaneous page views of one user make one CMS request', async () => {
  const cms = await strapiAnswering(async (_req, res) => {
    await cms.delay(50);
    sendJson(res, 200, fixture('v5-customs'));
  });
  const { branding } = brandingFrom(cms);
  const results = await Promise.all(Array.from({ length: 5 }, () => branding.getBranding('acme')));
  expect(results).toEqual(Array(5).fill(ACME));
  expect(cms.reads()).toHaveLength(1);
  expect(cms.logins()).toHaveLength(1);
});

test.each(['', '../admin', 'acme/../../x', 'a b', 'acme?x=1', 'acme#', '.hidden', '-x', 'a'.repeat(41), 'ñandú', 'acme%2f'])(
  'the user name %j cannot become part of the URL: no branding and no request',
  async (userName) => {
    const cms = await strapiAnswering((_req, res) => sendJson(res, 200, fixture('v5-customs')));
    expect(await brandingFrom(cms).branding.getBranding(userName)).toBeNull();
    expect(cms.received).toHaveLength(0);
  },
);

test('no log line contains the password, the jwt or the API token', async () => {
  const cms = await strapiAnswering((_req, res) => sendJson(res, 401, {}));
  const { branding, text } = brandingFrom(cms);
  await branding.getBranding('acme');
  const tokenCms = await strapiAnswering((_req, res) => sendJson(res, 500, {}));
  const tokenMode = brandingFrom(tokenCms, { client: { token: API_TOKEN } });
  await tokenMode.branding.getBranding('acme');
  expect(cms.issuedJwts()).toHaveLength(2);
  for (const secret of [PASSWORD, ...cms.issuedJwts(), API_TOKEN]) expect(text() + tokenMode.text()).not.toContain(secret);
});

test('a jwt refused after Strapi’s secret changed: one new login, and the branding is read with the new jwt', async () => {
  const cms = await strapiAnswering((_req, res) => sendJson(res, 200, fixture('v5-customs')));
  const { branding } = brandingFrom(cms, { branding: { ttlMs: 0 } });
  expect(await branding.getBranding('acme')).toEqual(ACME);
  cms.rotateJwtSecret();
  expect(await branding.getBranding('acme')).toEqual(ACME);
  const [first, second] = cms.issuedJwts();
  expect(cms.reads().map((r) => r.headers.authorization)).toEqual([`Bearer ${first}`, `Bearer ${first}`, `Bearer ${second}`]);
});

// The Content-Security-Policy (docs/decisions/003, 026): helmet sends it, from the directives of
// server/http/csp.ts, with the response's nonce and the analytics and preview decisions read from
// res.locals by helmet's directive functions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type * as HelmetModule from 'helmet';
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { contentSecurityPolicy, type CspOptions } from '../server/http/csp.ts';
import { ANALYTICS_HOSTS } from '../server/http/consent.ts';
import { createTestApp, testApp } from './helpers/app.ts';

const BASE: CspOptions = { upgradeInsecureRequests: false, analyticsHosts: ANALYTICS_HOSTS };

type Locals = { cspNonce?: string; analytics?: boolean; framedByCms?: boolean };

/** The header helmet's middleware writes for a response with these locals (or the error it passes on). */
function headerFor(options: CspOptions, locals: Locals): string {
  const written = new Map<string, string>();
  const res = { locals, setHeader: (name: string, value: string) => written.set(name, value) };
  let failure: unknown;
  helmet.contentSecurityPolicy(contentSecurityPolicy(options))({} as IncomingMessage, res as unknown as ServerResponse, (error) => {
    failure = error;
  });
  if (failure) throw failure;
  return written.get('Content-Security-Policy')!;
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...values]) => [name, values]),
  );
}

const cspOf = (res: request.Response) => String(res.headers['content-security-policy']);
const nonceOf = (res: request.Response) => /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(cspOf(res))?.[1];

test('scripts and styles need the response nonce; nothing inline, nothing framed, no plugins', () => {
  const policy = directives(headerFor(BASE, { cspNonce: 'bm9uY2Utb25l' }));
  expect(policy.get('script-src')).toEqual(["'self'", "'nonce-bm9uY2Utb25l'"]);
  expect(policy.get('style-src')).toEqual(["'self'", "'nonce-bm9uY2Utb25l'"]);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
  expect(policy.get('font-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('manifest-src')).toEqual(["'self'"]);
  expect(policy.get('worker-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect([...policy.values()].flat().join(' ')).not.toMatch(/unsafe-(inline|eval)/);
  expect([...policy.values()].flat()).not.toContain('https:');
  expect(policy.has('upgrade-insecure-requests')).toBe(false);
});

test('helmet adds its own default script-src-attr none, and no directive of its defaults is left looser than ours', () => {
  const policy = directives(headerFor(BASE, { cspNonce: 'abc123' }));
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  // helmet's defaults allow https: fonts and inline styles; ours override them.
  expect(helmet.contentSecurityPolicy.getDefaultDirectives()['style-src']).toContain("'unsafe-inline'");
  expect([...policy.keys()].sort()).toEqual(
    [
      'base-uri',
      'connect-src',
      'default-src',
      'font-src',
      'form-action',
      'frame-ancestors',
      'img-src',
      'manifest-src',
      'object-src',
      'script-src',
      'script-src-attr',
      'style-src',
      'worker-src',
    ].sort(),
  );
});

test('the analytics hosts are allowed only in the policy of a response that may load analytics', () => {
  const without = directives(headerFor(BASE, { cspNonce: 'abc123', analytics: false }));
  const withAnalytics = directives(headerFor(BASE, { cspNonce: 'abc123', analytics: true }));
  expect(without.get('script-src')).toEqual(["'self'", "'nonce-abc123'"]);
  expect(without.get('connect-src')).toEqual(["'self'"]);
  expect(without.get('img-src')).toEqual(["'self'", 'data:']);
  expect(withAnalytics.get('script-src')).toEqual(["'self'", "'nonce-abc123'", ...ANALYTICS_HOSTS.script]);
  expect(withAnalytics.get('connect-src')).toEqual(["'self'", ...ANALYTICS_HOSTS.connect]);
  expect(withAnalytics.get('img-src')).toEqual(["'self'", 'data:', ...ANALYTICS_HOSTS.img]);
});

test('production adds upgrade-insecure-requests', () => {
  expect(directives(headerFor({ ...BASE, upgradeInsecureRequests: true }, { cspNonce: 'abc123' })).has('upgrade-insecure-requests')).toBe(
    true,
  );
});

test('each response carries its own nonce', () => {
  expect(headerFor(BASE, { cspNonce: 'first1' })).not.toBe(headerFor(BASE, { cspNonce: 'second2' }));
  expect(headerFor(BASE, { cspNonce: 'first1' }).match(/'nonce-first1'/g)).toHaveLength(2);
});

test.each(["x' 'unsafe-inline", 'a;script-src *', 'with space', '', undefined])(
  'a nonce that could change the policy (%j) is refused: helmet passes the error on',
  (nonce) => {
    expect(() => headerFor(BASE, nonce === undefined ? {} : { cspNonce: nonce })).toThrow(/Not a CSP nonce/);
  },
);

test('the CMS media hosts are allowed as exactly https://{host} in img-src, in both policies; nothing else changes', () => {
  const mediaHosts = ['res.cloudinary.com', 'acme.media.strapiapp.com'];
  for (const analytics of [false, true]) {
    const plain = directives(headerFor(BASE, { cspNonce: 'abc123', analytics }));
    const policy = directives(headerFor({ ...BASE, mediaHosts }, { cspNonce: 'abc123', analytics }));
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'data:',
      'https://res.cloudinary.com',
      'https://acme.media.strapiapp.com',
      ...(analytics ? ANALYTICS_HOSTS.img : []),
    ]);
    policy.delete('img-src');
    plain.delete('img-src');
    expect(policy).toEqual(plain);
  }
});

test.each(['cdn.example.com; script-src *', "cdn.example.com 'unsafe-inline'", '*'])(
  'a media host that could change the policy (%j) is refused',
  (host) => {
    expect(() => contentSecurityPolicy({ ...BASE, mediaHosts: [host] })).toThrow(/Not a media host name for the CSP/);
  },
);

test('frame-ancestors is the CMS origin only for a response the preview marks framedByCms; none everywhere else', () => {
  const withCms = { ...BASE, cmsOrigin: 'https://cms.example.com:1337' };
  expect(directives(headerFor(withCms, { cspNonce: 'abc123', framedByCms: true })).get('frame-ancestors')).toEqual([
    'https://cms.example.com:1337',
  ]);
  expect(directives(headerFor(withCms, { cspNonce: 'abc123' })).get('frame-ancestors')).toEqual(["'none'"]);
  const ipv6 = { ...BASE, cmsOrigin: 'http://[::1]:1337' };
  expect(directives(headerFor(ipv6, { cspNonce: 'abc123', framedByCms: true })).get('frame-ancestors')).toEqual(['http://[::1]:1337']);
  // No CMS configured: nothing may frame, whatever the flag says.
  expect(directives(headerFor(BASE, { cspNonce: 'abc123', framedByCms: true })).get('frame-ancestors')).toEqual(["'none'"]);
});

test.each(['https://cms.example.com/admin', "https://cms.example.com 'unsafe-inline'", '*', 'javascript:x'])(
  'a CMS origin that could change the policy (%j) is refused',
  (cmsOrigin) => {
    expect(() => contentSecurityPolicy({ ...BASE, cmsOrigin })).toThrow(/Not an origin for frame-ancestors/);
  },
);

const HTML_ANSWERS = ['/', '/en', '/blog', '/en/blog/web-accessibility-2026', '/login', '/Contact', '/en/privacy', '/nope', '/offline'];

test.each(HTML_ANSWERS)(
  'the HTML answer of %s carries the policy with a nonce that every <script> and <style> of the page carries',
  async (path) => {
    const res = await request(await testApp()).get(path);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const nonce = nonceOf(res);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(cspOf(res)).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(cspOf(res)).not.toContain('unsafe-inline');
    for (const [tag] of res.text.matchAll(/<(?:script|style)\b[^>]*>/g)) expect(tag).toContain(`nonce="${nonce}"`);
  },
);

test('two requests for the same page get two different nonces, and each page its own', async () => {
  const app = await testApp();
  const first = await request(app).get('/en');
  const second = await request(app).get('/en');
  expect(nonceOf(first)).not.toBe(nonceOf(second));
  expect(first.text).toContain(`nonce="${nonceOf(first)}"`);
  expect(second.text).toContain(`nonce="${nonceOf(second)}"`);
  expect(second.text).not.toContain(`nonce="${nonceOf(first)}"`);
});

test('the header on the wire is helmet’s: its default script-src-attr and its directive order', async () => {
  const res = await request(await testApp()).get('/en');
  expect(cspOf(res)).toMatch(
    /^default-src 'self';base-uri 'self';font-src 'self';form-action 'self';frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self' 'nonce-[^']+';script-src-attr 'none';style-src 'self' 'nonce-[^']+';connect-src 'self';manifest-src 'self';worker-src 'self'$/,
  );
});

test('nothing but helmet writes the policy: with helmet’s CSP switched off, a page has none', async () => {
  vi.resetModules();
  vi.doMock('helmet', async (importOriginal) => {
    const real = await importOriginal<typeof HelmetModule>();
    const withoutCsp = (options: Parameters<typeof real.default>[0]) => real.default({ ...options, contentSecurityPolicy: false });
    return { ...real, default: Object.assign(withoutCsp, real.default) };
  });
  try {
    const { createTestApp: createUnprotectedApp } = await import('./helpers/app.ts');
    const { app } = await createUnprotectedApp();
    const res = await request(app).get('/en');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    // helmet's other headers are still there.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  } finally {
    vi.doUnmock('helmet');
    vi.resetModules();
  }
});

test('with consent and analytics ids the policy allows their hosts and the page’s tags carry its nonce; without ids it does not', async () => {
  const { app } = await createTestApp({ ANALYTICS_GA_ID: 'G-ABCDEF1234' });
  const consented = await request(app).get('/en').set('Cookie', 'cookie_consent=v1:analytics=1');
  expect(cspOf(consented)).toContain(`script-src 'self' 'nonce-${nonceOf(consented)}' ${ANALYTICS_HOSTS.script.join(' ')};`);
  expect(cspOf(consented)).toContain(`connect-src 'self' ${ANALYTICS_HOSTS.connect.join(' ')};`);
  expect(consented.text).toContain(`googletagmanager.com/gtag/js?id=G-ABCDEF1234" nonce="${nonceOf(consented)}"`);
  const refused = await request(app).get('/en').set('Cookie', 'cookie_consent=v1:analytics=0');
  expect(cspOf(refused)).not.toContain('googletagmanager');
  const { app: withoutIds } = await createTestApp();
  expect(cspOf(await request(withoutIds).get('/en').set('Cookie', 'cookie_consent=v1:analytics=1'))).not.toContain('google');
});

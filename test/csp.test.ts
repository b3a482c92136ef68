// The Content-Security-Policy header (docs/decisions/003), made from templates written at start.
import { expect, test } from 'vitest';
import { createCspHeader } from '../server/http/csp.ts';
import { ANALYTICS_HOSTS } from '../server/http/consent.ts';

const header = createCspHeader({ upgradeInsecureRequests: false, analyticsHosts: ANALYTICS_HOSTS });

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...values]) => [name, values]),
  );
}

test('scripts and styles need the response nonce; nothing inline, nothing framed, no plugins', () => {
  const policy = directives(header('bm9uY2Utb25l', false));
  expect(policy.get('script-src')).toEqual(["'self'", "'nonce-bm9uY2Utb25l'"]);
  expect(policy.get('style-src')).toEqual(["'self'", "'nonce-bm9uY2Utb25l'"]);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect([...policy.values()].flat().join(' ')).not.toMatch(/unsafe-(inline|eval)/);
  expect(policy.has('upgrade-insecure-requests')).toBe(false);
});

test('the analytics hosts are allowed only in the policy of a visitor who consented', () => {
  const without = directives(header('abc123', false));
  const withAnalytics = directives(header('abc123', true));
  expect(without.get('script-src')).not.toContain('https://www.googletagmanager.com');
  expect(withAnalytics.get('script-src')).toEqual(["'self'", "'nonce-abc123'", ...ANALYTICS_HOSTS.script]);
  expect(withAnalytics.get('connect-src')).toEqual(["'self'", ...ANALYTICS_HOSTS.connect]);
  expect(withAnalytics.get('img-src')).toEqual(["'self'", 'data:', ...ANALYTICS_HOSTS.img]);
});

test('production adds upgrade-insecure-requests', () => {
  const production = createCspHeader({ upgradeInsecureRequests: true, analyticsHosts: ANALYTICS_HOSTS });
  expect(directives(production('abc123', false)).has('upgrade-insecure-requests')).toBe(true);
});

test('each call carries the nonce it is given', () => {
  expect(header('first1', false)).not.toBe(header('second2', false));
  expect(header('first1', false).match(/'nonce-first1'/g)).toHaveLength(2);
});

test.each(["x' 'unsafe-inline", 'a;script-src *', 'with space', ''])('a nonce that could change the policy (%j) is refused', (nonce) => {
  expect(() => header(nonce, false)).toThrow(/Not a CSP nonce/);
});

test('the CMS media hosts are allowed as exactly https://{host} in img-src, in both policies; nothing else changes', () => {
  const mediaHosts = ['res.cloudinary.com', 'acme.media.strapiapp.com'];
  const withMedia = createCspHeader({ upgradeInsecureRequests: false, analyticsHosts: ANALYTICS_HOSTS, mediaHosts });
  for (const analytics of [false, true]) {
    const plain = directives(header('abc123', analytics));
    const policy = directives(withMedia('abc123', analytics));
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
    expect(() => createCspHeader({ upgradeInsecureRequests: false, analyticsHosts: ANALYTICS_HOSTS, mediaHosts: [host] })).toThrow(
      /Not a media host name for the CSP/,
    );
  },
);

import { expect, test } from 'vitest';
import { isSafeLocalPath, safeRedirectPath } from '../shared/safe-path.ts';

// A remembered redirect path must be local: it starts with '/', consists of
// letters, digits and @ - % _ ~ (and '/'), optionally followed by a query and a hash.
const SAFE = [
  '/',
  '/client',
  '/en/blog/how-to-brief-an-expert',
  '/es/changePassword',
  '/profile?tab=avatar',
  '/blog?page=2&sort=new',
  '/blog#comments',
  '/blog?x=1#top',
  '/user@home/~me/a_b-c',
  '/caf%C3%A9',
];

const HOSTILE = [
  '//evil.com',
  '///evil.com',
  '/\\evil.com',
  '\\\\evil.com',
  '\\/evil.com',
  '/%2F%2Fevil.com',
  '/%2f%2fevil.com',
  '/%5Cevil.com',
  '/%5cevil.com',
  '/%252F%252Fevil.com',
  '/%255Cevil.com',
  'https://evil.com',
  'http://evil.com/x',
  'HTTPS://evil.com',
  '//evil.com/%2F..',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'evil.com',
  'client',
  '',
  ' /client',
  '/client ',
  '/\tevil.com',
  '/\t/evil.com',
  '/\n/evil.com',
  '/\r\n//evil.com',
  '/cli\u0000ent',
  '/%00',
  '/%0a/evil.com',
  '/%09/evil.com',
  '/\u2215\u2215evil.com',
  '/\uFF0F\uFF0Fevil.com',
  '/\u2044evil.com',
  '/\u29F8evil.com',
  '/..\\..\\evil',
  '/a/../..//evil.com',
  '/blog?next=\\evil',
  '/blog#\\evil',
  '/blog?q=a b',
  '/x%',
  '/%E0%A4%A',
  '/' + 'a'.repeat(3000),
  '/@evil.com',
  '/blog/<script>',
  '/blog"onmouseover="x',
];

test.each(SAFE)('%s is a safe local path', (path) => {
  expect(isSafeLocalPath(path)).toBe(true);
});

test.each(HOSTILE)('hostile redirect target %j is refused', (path) => {
  expect(isSafeLocalPath(path)).toBe(false);
});

test('non-strings are refused', () => {
  for (const value of [null, undefined, 42, {}, ['/client']]) expect(isSafeLocalPath(value)).toBe(false);
});

test('safeRedirectPath falls back when the candidate is not safe', () => {
  expect(safeRedirectPath('/en/profile', '/en')).toBe('/en/profile');
  expect(safeRedirectPath('//evil.com', '/en')).toBe('/en');
  expect(safeRedirectPath(undefined, '/client')).toBe('/client');
});

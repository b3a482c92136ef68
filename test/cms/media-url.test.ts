import { expect, test } from 'vitest';
import { proxiedMediaPath } from '../../server/cms/media-url.ts';

const CMS = 'https://cms.example.com';

test.each([
  ['/uploads/logo_5f1e2d.png', '/cms/uploads/logo_5f1e2d.png'],
  ['https://cms.example.com/uploads/logo.png', '/cms/uploads/logo.png'],
  ['HTTPS://CMS.EXAMPLE.COM/uploads/logo.png', '/cms/uploads/logo.png'],
  ['/uploads/a/b/c.svg', '/cms/uploads/a/b/c.svg'],
])('an upload of the CMS (%s) is shown through the /cms proxy as %s', (url, expected) => {
  expect(proxiedMediaPath(url, CMS)).toBe(expected);
});

test.each([
  'https://evil.example/uploads/logo.png',
  'https://cms.example.com.evil.example/uploads/logo.png',
  'https://cms.example.com@evil.example/uploads/logo.png',
  'http://cms.example.com/uploads/logo.png',
  'https://cms.example.com:8443/uploads/logo.png',
  '//evil.example/uploads/logo.png',
  '/\\evil.example/uploads/logo.png',
  'javascript:alert(1)',
  'data:image/svg+xml;base64,PHN2Zy8+',
  '/uploads/../admin',
  '/uploads/%2e%2e/admin',
  '/admin/logo.png',
  'uploads/logo.png',
  '/uploads/logo name.png',
  '/uploads/logo.png"onerror="alert(1)',
  '',
  null,
  42,
])('the logo URL %j is refused', (url) => {
  expect(proxiedMediaPath(url, CMS)).toBeNull();
});

import { expect, test } from 'vitest';
import { cmsMediaUrl, proxiedMediaPath } from '../../server/cms/media-url.ts';

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

const MEDIA = { cmsOrigin: CMS, mediaHosts: ['res.cloudinary.com', 'acme.media.strapiapp.com'] };

test.each([
  ['/uploads/logo.png', '/cms/uploads/logo.png'],
  ['https://cms.example.com/uploads/logo.png', '/cms/uploads/logo.png'],
  ['https://res.cloudinary.com/acme/image/upload/v1/logo.png', 'https://res.cloudinary.com/acme/image/upload/v1/logo.png'],
  ['https://acme.media.strapiapp.com/logo_5f1e2d.png', 'https://acme.media.strapiapp.com/logo_5f1e2d.png'],
  ['https://RES.Cloudinary.com/acme/logo.png', 'https://res.cloudinary.com/acme/logo.png'],
])('a CMS media URL (%s) on the CMS or a media host is shown as %s', (url, expected) => {
  expect(cmsMediaUrl(url, MEDIA)).toBe(expected);
});

test.each([
  'https://evil.example/logo.png',
  'https://cloudinary.com/acme/logo.png',
  'https://res.cloudinary.com.evil.example/logo.png',
  'https://res.cloudinary.com@evil.example/logo.png',
  'https://evil.example/res.cloudinary.com/logo.png',
  'http://res.cloudinary.com/acme/logo.png',
  'https://res.cloudinary.com:444/acme/logo.png',
  '//res.cloudinary.com/acme/logo.png',
  'https://res.cloudinary.com/acme/logo.png#x',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
])('a media URL that is on neither (%s) is refused', (url) => {
  expect(cmsMediaUrl(url, MEDIA)).toBeNull();
});

test('without CMS_MEDIA_HOSTS no other host is accepted', () => {
  expect(cmsMediaUrl('https://res.cloudinary.com/acme/logo.png', { cmsOrigin: CMS })).toBeNull();
});

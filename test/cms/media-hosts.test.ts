// CMS_MEDIA_HOSTS: the hosts of a Strapi upload provider (S3, Cloudinary, Strapi Cloud), whose
// media URLs are absolute and on another host. Images there are shown, and the CSP's img-src
// allows exactly those hosts; images on any other host stay refused.
import request from 'supertest';
import { expect, test } from 'vitest';
import { createUser } from '../../server/users/users.ts';
import { loadConfig } from '../../server/base/config.ts';
import { isSafeLogoSrc, sanitizeBranding } from '../../shared/branding.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { loadBrand } from '../../server/brand/brand.ts';
import { LEAST_PRIVILEGE, paginate, SERVICE_ACCOUNT, sendJson, startFakeStrapi } from './fake-strapi.ts';

const BUCKET = 'acme-media.s3.eu-west-1.amazonaws.com';
const CLOUDINARY = 'res.cloudinary.com';
const PASSWORD = 'correct horse battery';

test.each([
  ['', []],
  [`${BUCKET}`, [BUCKET]],
  [` ${BUCKET} , ${CLOUDINARY} ,`, [BUCKET, CLOUDINARY]],
  [`https://${CLOUDINARY}`, [CLOUDINARY]],
  ['HTTPS://Acme.Media.StrapiApp.com/', ['acme.media.strapiapp.com']],
  [`${CLOUDINARY},${CLOUDINARY}`, [CLOUDINARY]],
])('CMS_MEDIA_HOSTS=%j is read as %j', (value, hosts) => {
  expect(loadConfig({ CMS_MEDIA_HOSTS: value }).CMS_MEDIA_HOSTS).toEqual(hosts);
});

test.each([
  ['http://cdn.example.com', /CMS_MEDIA_HOSTS: "http:\/\/cdn.example.com" is not https/],
  ['ftp://cdn.example.com', /CMS_MEDIA_HOSTS: "ftp:\/\/cdn.example.com" is not https/],
  ['*.cloudinary.com', /CMS_MEDIA_HOSTS: "\*.cloudinary.com" is not a bare host name/],
  ['cdn.example.com:8443', /"cdn.example.com:8443" is not a bare host name/],
  ['https://cdn.example.com/media', /"https:\/\/cdn.example.com\/media" is not a bare host name/],
  ['cdn.example.com/media', /"cdn.example.com\/media" is not a bare host name/],
  ['203.0.113.7', /"203.0.113.7" is not a bare host name/],
  ['localhost', /"localhost" is not a bare host name/],
  ["cdn.example.com 'unsafe-inline'", /is not a bare host name/],
  ['cdn.example.com;script-src', /is not a bare host name/],
  ['good.example.com, bad_host', /"bad_host" is not a bare host name/],
])('CMS_MEDIA_HOSTS=%j stops the start with an error naming the variable and the value', (value, message) => {
  expect(() => loadConfig({ CMS_MEDIA_HOSTS: value })).toThrow(message);
});

test('an entry with user info is refused without repeating its password', () => {
  expect(() => loadConfig({ CMS_MEDIA_HOSTS: 'https://user:s3cret@cdn.example.com' })).toThrow(
    /CMS_MEDIA_HOSTS: "https:\/\/…@cdn.example.com"/,
  );
  expect(() => loadConfig({ CMS_MEDIA_HOSTS: 'https://user:s3cret@cdn.example.com' })).not.toThrow(/s3cret/);
});

/** A Strapi 5 on S3: absolute media URLs (a cover, an image in a post, a logo) on `mediaHost`. */
async function strapiOnS3(mediaHost = BUCKET) {
  const post = {
    id: 1,
    documentId: 'p1',
    title: 'Auditoría',
    slug: 'auditoria',
    date: '2026-03-10',
    locale: 'es',
    cover: { url: `https://${mediaHost}/cover_a1b2.jpg`, provider: 'aws-s3' },
    content: `![El equipo](https://${mediaHost}/team_9c8b.jpg)`,
  };
  const customs = { id: 1, documentId: 'c1', colorNavbar: '#1A2B3C', logoNavbar: { url: `https://${mediaHost}/logo_5f1e.png` } };
  return startFakeStrapi(
    (req, res) => {
      if (req.path === '/api/posts') {
        const slug = req.query.get('filters[slug][$eq]');
        return sendJson(res, 200, paginate(req.query.get('locale') === 'es' && (!slug || slug === post.slug) ? [post] : [], req.query));
      }
      if (req.path === '/api/acme-customs') return sendJson(res, 200, paginate([customs], req.query));
      sendJson(res, 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    },
    { access: LEAST_PRIVILEGE },
  );
}

async function siteWith(cmsUrl: string, env: Record<string, string>) {
  const { app, db } = await createTestApp({
    CMS_URL: cmsUrl,
    CMS_IDENTIFIER: SERVICE_ACCOUNT.identifier,
    CMS_PASSWORD: SERVICE_ACCOUNT.password,
    ...env,
  });
  await createUser(db, { userName: 'acme', password: PASSWORD, role: 'CLI', name: 'Acme', lastName: 'Corp' });
  const login = await request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier: 'acme', password: PASSWORD });
  return { app, cookie: String(login.headers['set-cookie']).split(';')[0]! };
}

function imgSrc(csp: string | undefined): string[] {
  return (
    (csp ?? '')
      .split(';')
      .find((d) => d.startsWith('img-src'))
      ?.split(' ')
      .slice(1) ?? []
  );
}

test('media on a CMS_MEDIA_HOSTS host: the cover, the content image and the logo are shown, and the CSP allows exactly that host', async () => {
  const cms = await strapiOnS3();
  const { app, cookie } = await siteWith(cms.url, { CMS_MEDIA_HOSTS: `${BUCKET}, ${CLOUDINARY}` });
  const blog = await request(app).get('/blog');
  expect(blog.text).toContain(`src="https://${BUCKET}/cover_a1b2.jpg"`);
  expect(imgSrc(blog.headers['content-security-policy'])).toEqual(["'self'", 'data:', `https://${BUCKET}`, `https://${CLOUDINARY}`]);
  const post = await request(app).get('/blog/auditoria');
  expect(post.text).toContain(`src="https://${BUCKET}/cover_a1b2.jpg"`);
  expect(post.text).toContain(`<img src="https://${BUCKET}/team_9c8b.jpg" alt="El equipo"`);
  const area = await request(app).get('/client').set('Cookie', cookie);
  expect(area.text).toContain(`<img src="https://${BUCKET}/logo_5f1e.png"`);
  expect(area.text).toContain('--navbar-bg:#1A2B3C');
});

test('media on a host that is not in CMS_MEDIA_HOSTS stay refused: no cover, no image, the default logo, and the CSP is unchanged', async () => {
  const cms = await strapiOnS3('evil.example');
  const { app, cookie } = await siteWith(cms.url, { CMS_MEDIA_HOSTS: BUCKET });
  const post = await request(app).get('/blog/auditoria');
  expect(post.status).toBe(200);
  expect(post.text).not.toContain('evil.example');
  const area = await request(app).get('/client').set('Cookie', cookie);
  expect(area.text).not.toContain('evil.example');
  // The default logo, in the variant that reads on the dark branding colour (light ink).
  expect(area.text).toContain(`<img src="${loadBrand().page.logos.dark}"`);
  expect(area.text).toContain('--navbar-bg:#1A2B3C');
  expect(imgSrc(area.headers['content-security-policy'])).toEqual(["'self'", 'data:', `https://${BUCKET}`]);
});

test('without CMS_MEDIA_HOSTS (or without CMS_URL) the CSP allows images from our origin and data: only', async () => {
  const cms = await strapiOnS3();
  const withoutHosts = await siteWith(cms.url, {});
  expect(imgSrc((await request(withoutHosts.app).get('/')).headers['content-security-policy'])).toEqual(["'self'", 'data:']);
  const { app } = await createTestApp({ CMS_MEDIA_HOSTS: BUCKET });
  expect(imgSrc((await request(app).get('/')).headers['content-security-policy'])).toEqual(["'self'", 'data:']);
});

test.each([
  [{ color: '#123456', logo: `https://${BUCKET}/logo.png` }, [BUCKET], `https://${BUCKET}/logo.png`],
  [{ color: '#123456', logo: `https://${BUCKET}/logo.png` }, [], null],
  [{ color: '#123456', logo: 'https://evil.example/logo.png' }, [BUCKET], null],
  [{ color: '#123456', logo: '/cms/uploads/logo.png' }, [BUCKET], '/cms/uploads/logo.png'],
])('sanitizeBranding keeps a logo on the media hosts it is given, and our own paths (%j, %j)', (branding, hosts, logo) => {
  expect(sanitizeBranding(branding, '#30B7BB', hosts)).toEqual({ color: '#123456', logo });
});

test.each([
  ['/cms/uploads/logo.png', true],
  [`https://${BUCKET}/logo.png`, true],
  ['http://evil.example/logo.png', false],
  ['//evil.example/logo.png', false],
  ['https://user@evil.example/logo.png', false],
  ['javascript:alert(1)', false],
  ['data:image/png;base64,AAAA', false],
  ['https://evil.example:8443/logo.png', false],
  ['https://user:pw@evil.example/logo.png', false],
  ['ftp://evil.example/logo.png', false],
])('the navbar shows the logo %j: %s (the server chose the host; the CSP enforces it)', (logo, shown) => {
  expect(isSafeLogoSrc(logo)).toBe(shown);
});

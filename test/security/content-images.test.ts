// Security finding (info): the Markdown sanitiser kept every https: image, which the CSP
// (img-src 'self' data: and the CMS_MEDIA_HOSTS) then blocked: a broken image, a CSP report, and
// a page that asks a foreign host for something. Only images the CSP allows are kept now:
// same-origin paths, and https URLs on CMS_MEDIA_HOSTS; every other image is dropped whole.
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiContent } from '../../server/cms/content.ts';
import { markdownToSafeHtml } from '../../server/content/markdown.ts';
import { captureLogger, LEAST_PRIVILEGE, paginate, sendJson, startFakeStrapi } from '../cms/fake-strapi.ts';

const MEDIA_HOSTS = ['res.cloudinary.com', 'media.example-bucket.s3.eu-west-1.amazonaws.com'];

function images(markdown: string, mediaHosts: readonly string[] = MEDIA_HOSTS): string[] {
  return [...markdownToSafeHtml(markdown, { mediaHosts }).matchAll(/<img[^>]*>/g)].map(([tag]) => tag);
}

test.each([
  ['a same-origin path', '/cms/uploads/team_9c8b7a.jpg', '/cms/uploads/team_9c8b7a.jpg'],
  ['a same-origin path with a query', '/logo.svg?v=2', '/logo.svg?v=2'],
  [
    'a Cloudinary image (a media host)',
    'https://res.cloudinary.com/acme/image/upload/v1/team.jpg',
    'https://res.cloudinary.com/acme/image/upload/v1/team.jpg',
  ],
  [
    'an S3 image (a media host)',
    'https://media.example-bucket.s3.eu-west-1.amazonaws.com/team.png',
    'https://media.example-bucket.s3.eu-west-1.amazonaws.com/team.png',
  ],
  [
    'a media host written in upper case, normalised',
    'https://RES.CLOUDINARY.COM/acme/team.jpg',
    'https://res.cloudinary.com/acme/team.jpg',
  ],
])('keeps an image on %s', (_what, src, shown) => {
  expect(images(`![team](${src})`)).toEqual([`<img src="${shown.replace(/&/g, '&amp;')}" alt="team" />`]);
});

test.each([
  ['another https host', 'https://evil.example/pixel.png'],
  ['a look-alike host (suffix)', 'https://res.cloudinary.com.evil.example/x.png'],
  ['a look-alike host (user info)', 'https://res.cloudinary.com@evil.example/x.png'],
  ['a media host as a path', 'https://evil.example/res.cloudinary.com/x.png'],
  ['a media host on another port', 'https://res.cloudinary.com:8443/x.png'],
  ['a media host over http', 'http://res.cloudinary.com/x.png'],
  ['a protocol-relative URL', '//res.cloudinary.com/x.png'],
  ['a backslash path to another host', '/\\evil.example/x.png'],
  ['a data: URL', 'data:image/svg+xml;base64,PHN2Zy8+'],
  ['a javascript: URL', 'javascript:alert(1)'],
  ['a relative path without a leading slash (resolves under the page)', 'pixel.png'],
])('drops an image on %s', (_what, src) => {
  expect(images(`before ![x](${src}) after`)).toEqual([]);
  expect(images(`<p><img src="${src}" alt="x"></p>`)).toEqual([]);
});

test('without media hosts (the embedded content) only same-origin images are kept', () => {
  expect(images('![a](/img/a.png) ![b](https://res.cloudinary.com/acme/b.png)', [])).toEqual(['<img src="/img/a.png" alt="a" />']);
  expect(markdownToSafeHtml('![b](https://res.cloudinary.com/acme/b.png)')).toBe('<p></p>');
});

test('a dropped image leaves its surrounding text, and links are not images: an https link stays', () => {
  const html = markdownToSafeHtml('See ![x](https://evil.example/x.png) [the guide](https://evil.example/guide).', {
    mediaHosts: MEDIA_HOSTS,
  });
  expect(html).toBe('<p>See  <a href="https://evil.example/guide" rel="noopener noreferrer" target="_blank">the guide</a>.</p>');
});

test('an image given as raw HTML with a srcset or an onerror keeps neither', () => {
  expect(images('<img src="/a.png" srcset="https://evil.example/a.png 2x" onerror="alert(1)" alt="a">')).toEqual([
    '<img src="/a.png" alt="a" />',
  ]);
});

test('a CMS post: an image on another host is dropped, the CMS’s own uploads (images and links) go through /cms', async () => {
  const content = [
    '![pixel](https://evil.example/pixel.png)',
    '![team](/uploads/team.jpg)',
    '![absolute](CMS_ORIGIN/uploads/abs.jpg)',
    '[the brochure](/uploads/brochure.pdf)',
  ].join('\n\n');
  const cms = await startFakeStrapi(
    (req, res) => {
      const post = { id: 1, documentId: 'd1', title: 'T', slug: 't', content: content.replace('CMS_ORIGIN', cms.url), date: '2026-01-01' };
      sendJson(res, 200, paginate([post], req.query));
    },
    { access: LEAST_PRIVILEGE },
  );
  const { logger } = captureLogger();
  const html = (await createStrapiContent({ client: createStrapiClient({ url: cms.url, logger }), logger }).getPost('t', 'es'))?.html;
  expect(html).not.toContain('evil.example');
  expect(html).toContain('<img src="/cms/uploads/team.jpg" alt="team" />');
  expect(html).toContain('<img src="/cms/uploads/abs.jpg" alt="absolute" />');
  expect(html).toContain('<a href="/cms/uploads/brochure.pdf">the brochure</a>');
});

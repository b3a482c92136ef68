// Security finding: the /cms proxy's block list compared the raw path, case-sensitively, so
// /cms/api/Users, /cms/api/Upload/files, /cms/api/users;x and /cms/api/%55sers reached Strapi
// (whose router ignores case). These are the requests an attacker sends, byte for byte (a raw
// HTTP request: no client library normalises them), and the 404 that must come back without
// the CMS being asked. The proxy now decides with an allow list on a normalised path.
import express from 'express';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, onTestFinished, test } from 'vitest';
import { createCmsProxy } from '../../server/cms/proxy.ts';
import { captureLogger, sendJson, startFakeStrapi } from '../cms/fake-strapi.ts';

/** The site's /cms proxy in front of a CMS that would answer 200 to anything it is asked. */
async function proxyInFrontOfCms() {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data: [] }));
  const app = express();
  app.use('/cms', await createCmsProxy({ url: cms.url, logger: captureLogger().logger }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  /** Sends the path exactly as written. */
  function send(method: 'GET' | 'HEAD', path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  }
  return { cms, send };
}

const ATTACKS: [what: string, path: string][] = [
  // Strapi's router ignores case: a block list in lower case does not.
  ['the users collection in another case', '/cms/api/Users'],
  ['the current user in upper case', '/cms/api/USERS/me'],
  ['the media library in another case', '/cms/api/Upload/files'],
  ['the login in another case', '/cms/api/Auth/local'],
  ['OAuth redirects in upper case', '/cms/api/CONNECT/google'],
  // Matrix parameters: `users;x` is still `users` to some routers.
  ['a ;param on the collection', '/cms/api/users;x'],
  ['a ;param before a sub-route', '/cms/api/users;x/me'],
  ['a ;param hiding a dot-dot', '/cms/api/posts;/../users'],
  // Percent-encoded letters, once and twice.
  ['an encoded letter', '/cms/api/%55sers'],
  ['an encoded letter in lower case', '/cms/api/u%73ers'],
  ['a double-encoded letter', '/cms/api/%2555sers'],
  ['a double-encoded dot-dot', '/cms/uploads/%252e%252e/admin'],
  ['an overlong UTF-8 dot', '/cms/uploads/%c0%ae%c0%ae/admin'],
  ['a malformed escape', '/cms/api/posts%zz'],
  ['a non-ASCII letter', '/cms/api/us%C3%A9rs'],
  // Traversal out of an allowed prefix, in every spelling.
  ['a dot-dot', '/cms/api/posts/../users'],
  ['an encoded dot-dot', '/cms/api/posts/%2e%2e/users'],
  ['an encoded slash', '/cms/api/posts%2f..%2fusers'],
  ['a backslash', '/cms/api/posts\\..\\users'],
  ['an encoded backslash', '/cms/api/posts/%5c..%5cusers'],
  ['an empty segment', '/cms/api//users'],
  ['a dot segment', '/cms/uploads/./x.png'],
  ['uploads then dot-dot', '/cms/uploads/../admin'],
  ['an encoded NUL', '/cms/uploads/x%00.png'],
  // Routes that are not public content, whatever their spelling.
  ['the users-permissions plugin', '/cms/api/users-permissions/roles'],
  ['the upload plugin', '/cms/api/upload'],
  ['the i18n plugin', '/cms/api/i18n/locales'],
  ['a branding collection (per user, not public)', '/cms/api/acme-customs'],
  ['another collection', '/cms/api/documentation'],
  ['a sub-route of a public collection', '/cms/api/posts/4/localizations'],
  ['an entry id that is not an id', '/cms/api/posts/4.json'],
  ['the admin panel', '/cms/admin'],
  ['the admin panel in another case', '/cms/Admin/init'],
  ['the health check', '/cms/_health'],
  ['the uploads folder itself', '/cms/uploads/'],
];

test.each(ATTACKS)('%s (GET and HEAD %s) is a 404, and the CMS is never asked', async (_what, path) => {
  const { cms, send } = await proxyInFrontOfCms();
  expect(await send('GET', path)).toBe(404);
  expect(await send('HEAD', path)).toBe(404);
  expect(cms.received).toEqual([]);
});

const ALLOWED: [what: string, path: string, forwarded: string][] = [
  ['the posts', '/cms/api/posts?locale=en', '/api/posts?locale=en'],
  ['a post by id', '/cms/api/posts/4', '/api/posts/4'],
  ['a legal page by documentId', '/cms/api/legal-pages/h4x2k9q0wz1m3n5b7v8c6x4z', '/api/legal-pages/h4x2k9q0wz1m3n5b7v8c6x4z'],
  ['a collection in another case, sent in its canonical case', '/cms/API/Posts', '/api/posts'],
  ['a collection with a ;param, sent without it', '/cms/api/legal-pages;x=1', '/api/legal-pages'],
  ['an encoded letter, sent decoded', '/cms/api/p%6fsts', '/api/posts'],
  ['an upload, its name in its own case', '/cms/uploads/Logo_AB12cd.png', '/uploads/Logo_AB12cd.png'],
  ['an upload in a folder', '/cms/uploads/2026/team@2x.jpg', '/uploads/2026/team@2x.jpg'],
];

test.each(ALLOWED)('%s (%s) is forwarded as %s', async (_what, path, forwarded) => {
  const { cms, send } = await proxyInFrontOfCms();
  expect(await send('GET', path)).toBe(200);
  expect(cms.received.map((r) => r.url)).toEqual([forwarded]);
});

// Drafts are read from Strapi 5 (`status=draft`) and Strapi 4 (`publicationState=preview`)
// alike, whichever way the other version's parameter is treated (refused by recent versions,
// ignored by older ones); the version is learned from the answers, once (server/cms/drafts.ts).
import request from 'supertest';
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiDrafts } from '../../server/cms/drafts.ts';
import { createTestApp } from '../helpers/app.ts';
import { documentStore, type StoreOptions } from './fake-strapi-documents.ts';
import { captureLogger, startFakeStrapi } from './fake-strapi.ts';

const TOKEN = 'preview-api-token';
const READS = ['post.find', 'post.findOne', 'legal-page.find', 'legal-page.findOne'];

const VERSIONS: [string, StoreOptions][] = [
  ['Strapi 5 that refuses unknown parameters', { strapi: 5, unknownParameters: 'reject' }],
  ['Strapi 5 that ignores them', { strapi: 5, unknownParameters: 'ignore' }],
  ['Strapi 4 that refuses unknown parameters', { strapi: 4, unknownParameters: 'reject' }],
  ['Strapi 4 that ignores them', { strapi: 4, unknownParameters: 'ignore' }],
];

async function draftsOn(options: StoreOptions, { empty = false } = {}) {
  const store = documentStore(options);
  if (!empty) {
    const published = store.create(
      'posts',
      'es',
      { title: 'Publicado', slug: 'publicado', content: 'Uno', date: '2026-02-01' },
      { published: true },
    );
    store.edit(published, 'es', { title: 'Publicado, con cambios' });
    store.create('posts', 'es', { title: 'Sin publicar', slug: 'sin-publicar', content: 'Dos' });
    const privacy = store.create('legal-pages', 'es', { page: 'privacy', title: 'Privacidad', content: 'Tres' }, { published: true });
    store.edit(privacy, 'es', { title: 'Privacidad (borrador)' });
  }
  const cms = await startFakeStrapi(store.handler, { access: { public: [], tokens: { [TOKEN]: READS } } });
  const { logger } = captureLogger();
  const drafts = createStrapiDrafts({ client: createStrapiClient({ url: cms.url, token: TOKEN, logger }), logger });
  return { cms, store, drafts };
}

test.each(VERSIONS)('%s: the drafts are read, dated by their last change when never published', async (_name, options) => {
  const { drafts } = await draftsOn(options);
  const titles = (await drafts.content.listPosts('es')).map((p) => p.title);
  // (Strapi 4 edits a published entry in place: there, what is published is its draft.)
  expect(titles).toEqual(['Sin publicar', 'Publicado, con cambios']);
  const unpublished = await drafts.content.getPost('sin-publicar', 'es');
  expect(unpublished?.title).toBe('Sin publicar');
  expect(unpublished?.date).toMatch(/^2026-05-\d\d$/);
  expect((await drafts.content.getLegal('privacy', 'es'))?.title).toBe('Privacidad (borrador)');
});

test.each(VERSIONS)('%s: the version is learned once, then every read is one request', async (_name, options) => {
  const { cms, drafts } = await draftsOn(options);
  await drafts.content.getPost('publicado', 'es');
  const before = cms.reads().length;
  await drafts.content.getPost('publicado', 'es');
  await drafts.content.getLegal('privacy', 'es');
  const after = cms.reads().slice(before);
  expect(after).toHaveLength(2);
  for (const read of after) {
    expect(read.query.get(options.strapi === 5 ? 'status' : 'publicationState')).toBe(options.strapi === 5 ? 'draft' : 'preview');
    expect(read.query.has(options.strapi === 5 ? 'publicationState' : 'status')).toBe(false);
    expect(read.headers.authorization).toBe(`Bearer ${TOKEN}`);
  }
});

test.each(VERSIONS)('%s: an empty answer teaches nothing, and is still right', async (_name, options) => {
  const { store, drafts } = await draftsOn(options, { empty: true });
  expect(await drafts.content.getPost('nada', 'es')).toBeNull();
  store.create('posts', 'es', { title: 'Llega después', slug: 'despues', content: 'x' });
  expect((await drafts.content.getPost('despues', 'es'))?.title).toBe('Llega después');
});

test('drafts are never cached: an edit shows on the very next read', async () => {
  const { store, drafts } = await draftsOn({ strapi: 5 });
  const id = store.create('posts', 'es', { title: 'Primera versión', slug: 'cambia', content: 'x' });
  expect((await drafts.content.getPost('cambia', 'es'))?.title).toBe('Primera versión');
  store.edit(id, 'es', { title: 'Segunda versión' });
  expect((await drafts.content.getPost('cambia', 'es'))?.title).toBe('Segunda versión');
});

test('with Strapi 4 (no documentId), a preview link by documentId is a 400 that says to give the slug', async () => {
  const store = documentStore({ strapi: 4 });
  store.create('posts', 'es', { title: 'Uno', slug: 'uno', content: 'x', date: '2026-01-01' }, { published: true });
  const cms = await startFakeStrapi(store.handler, { access: { public: READS, tokens: { [TOKEN]: READS } } });
  const secret = 'preview-secret-that-is-long-enough-0123456789';
  const { app } = await createTestApp({ CMS_URL: cms.url, CMS_PREVIEW_SECRET: secret, CMS_PREVIEW_TOKEN: TOKEN });
  const res = await request(app).get(`/preview?secret=${secret}&type=post&documentId=abc123&locale=es`);
  expect(res.status).toBe(400);
  expect(res.text).toBe('The CMS does not know documentId (Strapi 4): give the slug instead');
  const bySlug = await request(app).get(`/preview?secret=${secret}&type=post&slug=uno&locale=es`);
  expect(bySlug.status).toBe(307);
});

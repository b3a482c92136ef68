// The draft preview without JavaScript, on the app in this process against a fake Strapi 5 with
// Draft & Publish (docs/decisions/019, 047): the preview link opens the draft under its banner,
// and the way out is a plain form that brings back the published post. That the banner is seen
// (its colours and box at 1366 and 390 px), the preview inside the CMS's frame and axe-core are
// test/e2e/preview.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { documentStore } from '../cms/fake-strapi-documents.ts';
import { startFakeStrapi } from '../cms/fake-strapi.ts';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';

const SECRET = 'preview-secret-that-is-long-enough-0123456789';
const TOKEN = 'preview-api-token';
const READS = ['post.find', 'post.findOne', 'legal-page.find', 'legal-page.findOne'];
const DRAFT_TITLE = 'Borrador: cómo preparar una auditoría de datos';
const PUBLISHED_TITLE = 'Cómo preparar una auditoría de datos';

test('without JavaScript the preview link opens the draft under its banner, and the way out (a plain form) shows the published post', async () => {
  const store = documentStore({ strapi: 5 });
  const post = {
    title: PUBLISHED_TITLE,
    slug: 'auditoria-de-datos',
    description: 'Los pasos que seguimos.',
    content: 'Reunimos **inventario**, responsables y riesgos.',
    author: 'Lucía Martín',
    date: '2026-03-10',
  };
  const id = store.create('posts', 'es', post, { published: true });
  store.edit(id, 'es', { title: DRAFT_TITLE, content: 'Un párrafo que aún no se ha publicado.' });
  const cms = await startFakeStrapi(store.handler, { access: { public: READS, tokens: { [TOKEN]: READS } } });
  const { app } = await createTestApp({ CMS_URL: cms.url, CMS_PREVIEW_SECRET: SECRET, CMS_PREVIEW_TOKEN: TOKEN });
  const browser = plainBrowser(app);

  let page = await browser.open(
    `/preview?${new URLSearchParams({ secret: SECRET, type: 'post', slug: 'auditoria-de-datos', locale: 'es' })}`,
  );
  expect(page.url.pathname).toBe('/blog/auditoria-de-datos');
  expect(page.headers['cache-control']).toBe('private, no-store');
  expect(textOf(page.document.querySelector('h1'))).toBe(DRAFT_TITLE);
  const banner = within(page.document.body)
    .getAllByRole('status')
    .filter((status) => textOf(status).includes('Vista previa: borrador sin publicar'));
  expect(banner).toHaveLength(1);
  page = await browser.submit(page, within(banner[0]!).getByRole('button', { name: 'Salir de la vista previa' }) as HTMLButtonElement);
  expect(page.url.pathname).toBe('/blog/auditoria-de-datos');
  expect(textOf(page.document.querySelector('h1'))).toBe(PUBLISHED_TITLE);
  expect(page.document.querySelectorAll('.preview-banner')).toHaveLength(0);
  expect(browser.cookies.has('cms.preview')).toBe(false);
});

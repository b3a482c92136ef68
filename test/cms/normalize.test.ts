import { expect, test } from 'vitest';
import { CmsError } from '../../server/cms/errors.ts';
import { normalizeEntries, normalizeResponse, paginationOf } from '../../server/cms/normalize.ts';
import { fixture } from './fake-strapi.ts';

const SHAPES = ['v4', 'v5', 'v5-v4-format'] as const;
const postsFixture = { v4: 'v4-posts', v5: 'v5-posts', 'v5-v4-format': 'v5-posts-v4-format' } as const;
const customsFixture = { v4: 'v4-customs', v5: 'v5-customs', 'v5-v4-format': 'v5-customs-v4-format' } as const;

test.each(SHAPES)('a %s answer of posts becomes flat entries with the media flattened too', (shape) => {
  const [first, second] = normalizeEntries(fixture(postsFixture[shape]));
  expect(first).toMatchObject({
    id: 4,
    title: 'Cómo preparar una auditoría de datos',
    slug: 'auditoria-de-datos',
    author: 'Lucía Martín',
    date: '2026-03-10',
    locale: 'es',
    cover: { id: 7, url: '/uploads/auditoria_a1b2c3.jpg', formats: { thumbnail: { url: '/uploads/thumbnail_auditoria_a1b2c3.jpg' } } },
  });
  expect(first).not.toHaveProperty('attributes');
  expect(second).toMatchObject({ id: 2, slug: 'bienvenida', date: null, cover: null });
});

test('Strapi 5 answers keep the documentId, whether flat or in the v4 format', () => {
  for (const name of ['v5-posts', 'v5-posts-v4-format']) {
    const [first] = normalizeEntries(fixture(name));
    expect(first?.documentId).toBe('h4x2k9q0wz1m3n5b7v8c6x4z');
    expect((first?.cover as { documentId?: string }).documentId).toBe('m1n2b3v4c5x6z7a8s9d0f1g2');
  }
});

test.each(SHAPES)('a %s branding answer gives colorNavbar and logoNavbar.url at the top level', (shape) => {
  const [entry] = normalizeEntries(fixture(customsFixture[shape]));
  expect(entry?.colorNavbar).toBe('#1A2B3C');
  expect((entry?.logoNavbar as { url: string }).url).toBe('/uploads/acme_logo_5f1e2d.png');
});

test('the v4 and v5 answers of the same posts normalise to the same fields', () => {
  const withoutDocumentIds = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value, (key, v: unknown) => (key === 'documentId' || key === 'publishedAt' || key === 'sizeInBytes' ? undefined : v)),
    );
  const v4 = withoutDocumentIds(normalizeEntries(fixture('v4-posts')));
  expect(withoutDocumentIds(normalizeEntries(fixture('v5-posts')))).toEqual(v4);
  expect(withoutDocumentIds(normalizeEntries(fixture('v5-posts-v4-format')))).toEqual(v4);
});

test('relations to many are flattened into lists of flat objects', () => {
  const v4 = {
    data: [
      {
        id: 1,
        attributes: {
          tags: {
            data: [
              { id: 5, attributes: { name: 'data' } },
              { id: 6, attributes: { name: 'ai' } },
            ],
          },
        },
      },
    ],
  };
  const v5 = { data: [{ id: 1, documentId: 'a', tags: [{ id: 5, documentId: 'b', name: 'data' }] }] };
  expect(normalizeEntries(v4)[0]?.tags).toEqual([
    { id: 5, name: 'data' },
    { id: 6, name: 'ai' },
  ]);
  expect(normalizeEntries(v5)[0]?.tags).toEqual([{ id: 5, documentId: 'b', name: 'data' }]);
});

test('a single-type answer (data is an object) is one entry; data null is none', () => {
  const v4 = normalizeResponse({ data: { id: 1, attributes: { siteTitle: 'the product' } }, meta: {} });
  expect(v4).toEqual({ kind: 'single', entry: { id: 1, siteTitle: 'the product' }, meta: {} });
  expect(normalizeResponse({ data: { id: 1, documentId: 'x', siteTitle: 'the product' } })).toMatchObject({
    kind: 'single',
    entry: { id: 1, documentId: 'x', siteTitle: 'the product' },
  });
  expect(normalizeEntries({ data: null })).toEqual([]);
  expect(normalizeEntries({ data: [] })).toEqual([]);
});

test('rich text in blocks is left as it is (it has no data/attributes wrappers to remove)', () => {
  const blocks = [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi', bold: true }] }];
  expect(normalizeEntries({ data: [{ id: 1, documentId: 'd', content: blocks }] })[0]?.content).toEqual(blocks);
});

test.each([
  ['a string', '"hello"'],
  ['null', null],
  ['a list', []],
  ['an object without data', { items: [] }],
  ['data that is a number', { data: 3 }],
  ['an entry without id', { data: [{ attributes: { title: 'x' } }] }],
  ['an entry that is not an object', { data: ['x'] }],
  ['attributes that are not an object', { data: [{ id: 1, attributes: 'x' }] }],
  ['a Strapi error body', { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden' } }],
])('a malformed answer (%s) throws a CmsError with reason malformed', (_name, body) => {
  expect(() => normalizeResponse(body)).toThrow(CmsError);
  try {
    normalizeResponse(body);
  } catch (error) {
    expect((error as CmsError).reason).toBe('malformed');
    expect((error as CmsError).message).toMatch(/^CMS answer is malformed: /);
  }
});

test('an answer nested absurdly deep is refused rather than exhausting the stack', () => {
  let value: unknown = { url: '/uploads/x.png' };
  for (let i = 0; i < 100; i += 1) value = { data: { id: i, attributes: { next: value } } };
  expect(() => normalizeResponse({ data: [{ id: 1, attributes: { next: value } }] })).toThrow(/deeper than/);
});

test.each([
  [
    'v4/v5 page-based meta',
    { pagination: { page: 2, pageSize: 100, pageCount: 3, total: 250 } },
    { page: 2, pageSize: 100, pageCount: 3, total: 250 },
  ],
  ['no pagination (a custom controller)', {}, null],
  ['offset-based meta (start/limit)', { pagination: { start: 0, limit: 100, total: 250 } }, null],
  ['counts that are not counts', { pagination: { page: 1, pageSize: 100, pageCount: '3', total: 250 } }, null],
  ['a negative page count', { pagination: { page: 1, pageSize: 100, pageCount: -1, total: 0 } }, null],
])('paginationOf reads meta.pagination: %s', (_case, meta, expected) => {
  expect(paginationOf(meta)).toEqual(expected);
});

// The practices' pages, the case studies' further fields and the posts' authors from Strapi (the
// "practice" and "author" collections, "case-study"'s challenge and figures), read as the Public
// role with the same strictness as posts: a bad entry or item is skipped with a warning, the rest shown.
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiContent } from '../../server/cms/content.ts';
import { captureLogger, LEAST_PRIVILEGE, paginate, sendJson, sendStrapiError, startFakeStrapi, type FakeStrapi } from './fake-strapi.ts';

type Lists = Partial<Record<string, Partial<Record<string, unknown[]>>>>;

/** A Strapi 5 that answers these collections per locale (flat entries, as Strapi 5 does); any other path: 404. */
function strapiWith(lists: Lists) {
  return startFakeStrapi(
    (req, res) => {
      const collection = lists[req.path];
      if (!collection) return sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
      const entries = structuredClone(collection[req.query.get('locale') ?? 'es'] ?? []);
      sendJson(res, 200, paginate(entries, req.query));
    },
    { access: LEAST_PRIVILEGE },
  );
}

function contentFrom(cms: FakeStrapi) {
  const log = captureLogger();
  const client = createStrapiClient({ url: cms.url, logger: log.logger });
  return { content: createStrapiContent({ client, logger: log.logger }), ...log };
}

const PRACTICE = {
  id: 1,
  documentId: 'prdata',
  practice: 'data',
  title: 'Datos y analítica',
  description: 'Decidir con datos.',
  body: 'Los datos **sirven** cuando cambian una decisión.\n\n<script>alert(1)</script>',
  steps: [
    { id: 1, title: 'La pregunta', text: 'Qué decisión.' },
    { id: 2, title: '', text: 'Sin título: se salta.' },
    { id: 3, title: 'En uso', text: 'En el trabajo diario.' },
  ],
  engagements: [{ id: 1, text: 'Un cuadro de mando' }],
  caseStudy: 'cuadro-de-mando',
  locale: 'es',
};

test('a Strapi 5 practice gives its page: what it is (safe HTML), its steps and engagements (a bad one skipped), its case study, in the order of the practices', async () => {
  const cms = await strapiWith({
    '/api/practices': {
      es: [
        PRACTICE,
        { ...PRACTICE, id: 2, documentId: 'prdig', practice: 'digital', title: 'Digital', steps: null, engagements: null, caseStudy: null },
      ],
    },
  });
  const { content, warnings } = contentFrom(cms);
  const practices = await content.listPractices('es');
  expect(practices.map((p) => p.practice)).toEqual(['digital', 'data']);
  expect(practices[1]).toEqual({
    practice: 'data',
    locale: 'es',
    title: 'Datos y analítica',
    description: 'Decidir con datos.',
    html: expect.stringContaining('<p>Los datos <strong>sirven</strong> cuando cambian una decisión.</p>'),
    steps: [
      { title: 'La pregunta', text: 'Qué decisión.' },
      { title: 'En uso', text: 'En el trabajo diario.' },
    ],
    engagements: ['Un cuadro de mando'],
    caseStudy: 'cuadro-de-mando',
  });
  expect(practices[1]?.html).not.toContain('<script');
  expect(warnings().map((line) => line.msg)).toContain(
    'CMS practice data step 2 skipped: title Too small: expected string to have >=1 characters',
  );
  const [read] = cms.reads();
  expect(Object.fromEntries(read?.query ?? [])).toMatchObject({ locale: 'es', populate: '*' });
});

test('a practice that is no practice of the company is skipped with a warning; one given twice shows the first', async () => {
  const cms = await strapiWith({
    '/api/practices': { es: [{ ...PRACTICE, practice: 'marketing' }, PRACTICE, { ...PRACTICE, id: 9, title: 'Otra vez' }] },
  });
  const { content, warnings } = contentFrom(cms);
  expect((await content.listPractices('es')).map((p) => p.title)).toEqual(['Datos y analítica']);
  const messages = warnings().map((line) => line.msg);
  expect(messages.some((m) => /^CMS practice 1 skipped: practice/.test(m))).toBe(true);
  expect(messages).toContain('CMS practice data given twice in es: the first is shown');
});

test('a CMS without the practice or author types shows none, with one warning each, and the site goes on', async () => {
  const cms = await strapiWith({});
  const { content, warnings } = contentFrom(cms);
  expect(await content.listPractices('es')).toEqual([]);
  expect(await content.getAuthor('Ana Gil', 'es')).toBeNull();
  expect(await content.listPractices('en')).toEqual([]);
  const messages = warnings().map((line) => line.msg);
  expect(messages.filter((m) => m.startsWith('CMS /api/practices: not found'))).toHaveLength(1);
  expect(messages.filter((m) => m.startsWith('CMS /api/authors: not found'))).toHaveLength(1);
});

test('a Strapi 5 author is found by the name a post gives (case and accents aside), with the photo through /cms, else in the default language', async () => {
  const author = {
    id: 3,
    documentId: 'au1',
    name: 'Ána Gil',
    role: 'Responsable de datos',
    bio: 'Veinte años con **datos**.',
    photo: { url: '/uploads/ana_1a2b3c.png', width: 320, height: 320, alternativeText: null, formats: null },
    locale: 'es',
  };
  const cms = await strapiWith({ '/api/authors': { es: [author, { ...author, id: 4, role: 'Otra Ana: la primera gana' }] } });
  const { content } = contentFrom(cms);
  expect(await content.getAuthor('ana gil', 'es')).toEqual({
    name: 'Ána Gil',
    role: 'Responsable de datos',
    html: '<p>Veinte años con <strong>datos</strong>.</p>',
    photo: { src: '/cms/uploads/ana_1a2b3c.png', width: 320, height: 320, alt: 'Ána Gil' },
  });
  expect((await content.getAuthor('Ana Gil', 'en'))?.role).toBe('Responsable de datos');
  expect(await content.getAuthor('Nadie', 'es')).toBeNull();
});

test('a Strapi 5 case study gives its challenge and its further figures (a bad one skipped)', async () => {
  const study = {
    id: 5,
    documentId: 'cs1',
    title: 'Un cuadro de mando',
    slug: 'cuadro-de-mando',
    client: 'Cooperativa',
    sector: 'Agro',
    practice: 'data',
    quote: 'Citas.',
    quoteBy: 'Ana, gerente',
    story: 'La historia.',
    challenge: 'Decidían con datos del mes pasado.',
    figures: [
      { id: 1, value: '9 semanas', label: 'hasta el modelo' },
      { id: 2, value: '', label: 'sin cifra' },
    ],
    order: 1,
    locale: 'es',
  };
  const cms = await strapiWith({ '/api/case-studies': { es: [study] } });
  const [read] = await contentFrom(cms).content.listCaseStudies('es');
  expect(read?.challenge).toBe('Decidían con datos del mes pasado.');
  expect(read?.figures).toEqual([{ value: '9 semanas', label: 'hasta el modelo' }]);
});

test('what a practice’s or an author’s publish webhook purges (the public content) makes the site read them again', async () => {
  const lists: Lists = { '/api/practices': { es: [PRACTICE] } };
  const cms = await strapiWith(lists);
  const { content } = contentFrom(cms);
  expect((await content.listPractices('es'))[0]?.title).toBe('Datos y analítica');
  lists['/api/practices']!.es = [{ ...PRACTICE, title: 'Datos, renovado' }];
  expect((await content.listPractices('es'))[0]?.title).toBe('Datos y analítica');
  content.purge({ model: 'home' });
  expect((await content.listPractices('es'))[0]?.title).toBe('Datos, renovado');
});

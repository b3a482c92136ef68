// The home page's content from Strapi: the "home" single type (figures, client logos) and the
// "case-study" collection, read as the Public role with the same strictness as posts.
import type { ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { createStrapiContent, type StrapiContentOptions } from '../../server/cms/content.ts';
import { HttpError } from '../../server/http/errors.ts';
import {
  captureLogger,
  fixture,
  LEAST_PRIVILEGE,
  paginate,
  sendJson,
  sendStrapiError,
  startFakeStrapi,
  type FakeStrapi,
  type Received,
  type StrapiAccess,
} from './fake-strapi.ts';

const SHAPES = [
  ['v4', 'v4-home', 'v4-case-studies'],
  ['v5', 'v5-home', 'v5-case-studies'],
] as const;

type Answers = { home?: Partial<Record<string, unknown>>; caseStudies?: Partial<Record<string, unknown>> };

/**
 * A Strapi that answers the home single type per locale (a locale without one: 404, as Strapi
 * answers a single type with no entry) and the case studies per locale (missing: empty).
 */
function strapiWith(answers: Answers, options: { access?: StrapiAccess; answer?: (req: Received, res: ServerResponse) => boolean } = {}) {
  return startFakeStrapi(
    (req, res) => {
      if (options.answer?.(req, res)) return;
      const locale = req.query.get('locale') ?? 'es';
      if (req.path === '/api/home') {
        const home = answers.home?.[locale];
        return home ? sendJson(res, 200, structuredClone(home)) : sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
      }
      if (req.path === '/api/case-studies') {
        const { data } = structuredClone(answers.caseStudies?.[locale] ?? { data: [] }) as { data: unknown[] };
        return sendJson(res, 200, paginate(data, req.query));
      }
      sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
    },
    { access: options.access ?? LEAST_PRIVILEGE },
  );
}

function contentFrom(cms: FakeStrapi, options: Partial<StrapiContentOptions> = {}) {
  const log = captureLogger();
  const client = createStrapiClient({ url: cms.url, logger: log.logger });
  return { content: createStrapiContent({ client, logger: log.logger, ...options }), ...log };
}

test.each(SHAPES)('a %s home gives its figures and its logos (named, sized, through /cms), read anonymously', async (_shape, home) => {
  const cms = await strapiWith({ home: { es: fixture(home) } });
  expect(await contentFrom(cms).content.getHome('es')).toEqual({
    figures: [
      { value: '+200', label: 'expertos en la red' },
      { value: '95 %', label: 'de los proyectos entregados a tiempo' },
      { value: '12', label: 'sectores' },
    ],
    logos: [
      {
        src: '/cms/uploads/ejemplo_a1b2.png',
        srcset: '/cms/uploads/thumbnail_ejemplo_a1b2.png 245w, /cms/uploads/ejemplo_a1b2.png 480w',
        width: 480,
        height: 160,
        alt: 'Ayuntamiento de Ejemplo',
      },
      { src: '/cms/uploads/muestra_c3d4.png', width: 200, height: 80, alt: 'Cooperativa Muestra' },
    ],
    sample: true,
  });
  const [read] = cms.reads();
  expect(read?.path).toBe('/api/home');
  expect(Object.fromEntries(read?.query ?? [])).toEqual({
    locale: 'es',
    'populate[figures]': 'true',
    'populate[logos][populate][0]': 'logo',
  });
  expect(read?.headers.authorization).toBeUndefined();
});

test('a language without its home shows the default language’s (Strapi answers 404 for it)', async () => {
  const cms = await strapiWith({ home: { es: fixture('v5-home') } });
  const { content, warnings } = contentFrom(cms);
  expect((await content.getHome('en'))?.figures).toHaveLength(3);
  expect(cms.reads().map((r) => r.query.get('locale'))).toEqual(['en', 'es']);
  expect(warnings()).toEqual([]);
});

test('no home in the CMS (404 in every language) is no home, with one warning', async () => {
  const cms = await strapiWith({});
  const { content, warnings } = contentFrom(cms, { ttlMs: 0 });
  expect(await content.getHome('es')).toBeNull();
  expect(await content.getHome('en')).toBeNull();
  expect(warnings().map((w) => w.msg)).toEqual([
    'CMS /api/home: not found (404): the home page shows none of it until the content type and its entries exist',
  ]);
});

test('a figure or a logo that is not valid is skipped with a warning; the others are shown', async () => {
  const home = fixture('v5-home') as { data: { figures: unknown[]; logos: unknown[] } };
  home.data.figures.push({ id: 4, value: '', label: 'sin valor' }, { id: 5, value: 'x'.repeat(25), label: 'demasiado largo' });
  home.data.logos.push({ id: 3, name: 'Sin imagen', logo: null }, { id: 4, name: '', logo: { id: 9, url: '/uploads/x.png' } });
  home.data.logos.push({ id: 5, name: 'En otro sitio', logo: { id: 10, url: 'https://evil.example/logo.png', width: 10, height: 10 } });
  const cms = await strapiWith({ home: { es: home } });
  const { content, warnings } = contentFrom(cms);
  const shown = await content.getHome('es');
  expect(shown?.figures.map((f) => f.value)).toEqual(['+200', '95 %', '12']);
  expect(shown?.logos.map((l) => l.alt)).toEqual(['Ayuntamiento de Ejemplo', 'Cooperativa Muestra']);
  expect(warnings().map((w) => w.msg)).toEqual([
    expect.stringMatching(/^CMS home figure 4 skipped: value/),
    expect.stringMatching(/^CMS home figure 5 skipped: value/),
    expect.stringMatching(/^CMS home logo 4 skipped: name/),
    'CMS home logo "Sin imagen" skipped: its image is missing or on a host the site does not show',
    'CMS home logo "En otro sitio" skipped: its image is missing or on a host the site does not show',
  ]);
});

test('a logo without its own size (an SVG) keeps room for a 240×96 logo', async () => {
  const home = { data: { id: 1, figures: [], logos: [{ id: 1, name: 'Vector', logo: { id: 2, url: '/uploads/vector.svg' } }] }, meta: {} };
  const cms = await strapiWith({ home: { es: home } });
  expect((await contentFrom(cms).content.getHome('es'))?.logos).toEqual([
    { src: '/cms/uploads/vector.svg', width: 240, height: 96, alt: 'Vector' },
  ]);
});

test('at most 6 figures and 12 logos are shown, the first ones', async () => {
  const figures = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, value: String(i + 1), label: `figure ${i + 1}` }));
  const logos = Array.from({ length: 14 }, (_, i) => ({
    id: i + 1,
    name: `Client ${i + 1}`,
    logo: { id: i + 1, url: `/uploads/l${i}.png` },
  }));
  const cms = await strapiWith({ home: { es: { data: { id: 1, figures, logos }, meta: {} } } });
  const home = await contentFrom(cms).content.getHome('es');
  expect(home?.figures.map((f) => f.value)).toEqual(['1', '2', '3', '4', '5', '6']);
  expect(home?.logos).toHaveLength(12);
  expect(home?.sample).toBe(false);
});

test.each(SHAPES)('%s case studies come in their order, their story rendered to safe HTML', async (_shape, _home, studies) => {
  const cms = await strapiWith({ caseStudies: { es: fixture(studies) } });
  const list = await contentFrom(cms).content.listCaseStudies('es');
  expect(list).toEqual([
    {
      slug: 'tramites-en-linea',
      locale: 'es',
      title: 'Trámites en línea que se entienden',
      client: 'Ayuntamiento de Ejemplo',
      sector: 'Administración local',
      practice: 'digital',
      result: null,
      quote: 'Los vecinos ya no llaman para preguntar.',
      quoteBy: 'Luis Mora, jefe de servicio',
      html: '<p>Rediseñamos los diez trámites más pedidos.</p>',
      sample: true,
      challenge: null,
      figures: [],
    },
    {
      slug: 'cuadro-de-mando',
      locale: 'es',
      title: 'Un cuadro de mando que se usa',
      client: 'Cooperativa Muestra',
      sector: 'Agroalimentación',
      practice: 'data',
      result: { value: '−30 %', label: 'horas de informes al mes' },
      quote: 'Ahora decidimos con datos del lunes, no del mes pasado.',
      quoteBy: 'Ana Gil, gerente',
      html: expect.stringContaining('<p>Medimos lo que <strong>importa</strong> y nada más.</p>'),
      sample: false,
      challenge: null,
      figures: [],
    },
  ]);
  expect(list[1]?.html).not.toMatch(/<script/);
  const [read] = cms.reads();
  expect([read?.path, Object.fromEntries(read?.query ?? [])]).toEqual([
    '/api/case-studies',
    { locale: 'es', 'pagination[pageSize]': '100', populate: '*' },
  ]);
  expect(read?.headers.authorization).toBeUndefined();
});

test('a case study that is not valid is skipped with a warning; the others are shown', async () => {
  const valid = {
    id: 1,
    documentId: 'a',
    title: 'Fine',
    slug: 'fine',
    client: 'C',
    sector: 'S',
    practice: 'data',
    quote: 'Q',
    quoteBy: 'B',
    story: 'x',
    order: 1,
  };
  const answer = {
    data: [
      valid,
      { ...valid, id: 2, slug: 'no-title', title: '' },
      { ...valid, id: 3, slug: 'bad-practice', practice: 'marketing' },
      { ...valid, id: 4, slug: 'half-result', resultValue: '+3' },
      { ...valid, id: 5, slug: 'No Slug' },
      { ...valid, id: 6, slug: 'no-quote', quote: null },
    ],
    meta: {},
  };
  const cms = await strapiWith({ caseStudies: { es: answer } });
  const { content, warnings } = contentFrom(cms);
  expect((await content.listCaseStudies('es')).map((s) => s.slug)).toEqual(['fine']);
  expect(warnings().map((w) => w.entryId)).toEqual([2, 3, 4, 5, 6]);
  expect(warnings().map((w) => w.msg)).toEqual([
    expect.stringMatching(/case study 2 skipped: title/),
    expect.stringMatching(/case study 3 skipped: practice/),
    expect.stringMatching(/case study 4 skipped: resultLabel goes with resultValue/),
    expect.stringMatching(/case study 5 skipped: slug/),
    expect.stringMatching(/case study 6 skipped: quote/),
  ]);
});

test('only the case studies written in the language asked for are listed', async () => {
  const { data } = fixture('v5-case-studies') as { data: { locale: string }[] };
  const mixed = { data: [{ ...data[0]!, locale: 'en' }, data[1]!], meta: {} };
  const cms = await strapiWith({ caseStudies: { en: mixed } });
  expect((await contentFrom(cms).content.listCaseStudies('en')).map((s) => s.slug)).toEqual(['cuadro-de-mando']);
});

test('without find on case-study the read is refused (403): the list fails with a 503 and a warning names the Public role', async () => {
  const access = { ...LEAST_PRIVILEGE, public: LEAST_PRIVILEGE.public.filter((p) => p !== 'case-study.find') };
  const cms = await strapiWith({ caseStudies: { es: fixture('v5-case-studies') } }, { access });
  const { content, warnings } = contentFrom(cms);
  const failure = content.listCaseStudies('es');
  await expect(failure).rejects.toBeInstanceOf(HttpError);
  await expect(failure).rejects.toMatchObject({ status: 503 });
  expect(warnings().map((w) => w.msg)).toEqual([
    'CMS content case-studies:es: CMS GET /api/case-studies: answered 403 (the Public role may not read it: grant it find/findOne in Strapi); nothing cached to serve',
  ]);
});

test('a CMS without the case-study type (404) lists none, with one warning', async () => {
  const cms = await startFakeStrapi((_req, res) => sendStrapiError(res, 404, 'NotFoundError', 'Not Found'), { access: LEAST_PRIVILEGE });
  const { content, warnings } = contentFrom(cms, { ttlMs: 0 });
  expect(await content.listCaseStudies('es')).toEqual([]);
  expect(await content.listCaseStudies('en')).toEqual([]);
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]?.msg).toMatch(/^CMS \/api\/case-studies: not found \(404\)/);
});

test('the home and the case studies are cached: no request within the TTL, one after it', async () => {
  let clock = 5_000_000;
  const cms = await strapiWith({ home: { es: fixture('v4-home') }, caseStudies: { es: fixture('v4-case-studies') } });
  const { content } = contentFrom(cms, { now: () => clock, ttlMs: 60_000 });
  await content.getHome('es');
  await content.listCaseStudies('es');
  clock += 59_000;
  await content.getHome('es');
  await content.listCaseStudies('es');
  expect(cms.reads()).toHaveLength(2);
  clock += 2000;
  await content.getHome('es');
  expect(cms.reads()).toHaveLength(3);
});

test('when the CMS fails, the last good home and case studies are served (stale)', async () => {
  let clock = 5_000_000;
  let down = false;
  const cms = await strapiWith(
    { home: { es: fixture('v5-home') }, caseStudies: { es: fixture('v5-case-studies') } },
    {
      answer: (_req, res) => {
        if (down) sendJson(res, 502, {});
        return down;
      },
    },
  );
  const { content, warnings } = contentFrom(cms, { now: () => clock, ttlMs: 60_000, failureTtlMs: 10_000 });
  const home = await content.getHome('es');
  const studies = await content.listCaseStudies('es');
  down = true;
  clock += 61_000;
  expect(await content.getHome('es')).toEqual(home);
  expect(await content.listCaseStudies('es')).toEqual(studies);
  expect(warnings().map((w) => w.msg)).toEqual([
    expect.stringMatching(/^CMS content home:es: .*502.*serving the last good copy$/),
    expect.stringMatching(/^CMS content case-studies:es: .*502.*serving the last good copy$/),
  ]);
});

test('a webhook for the home or a case study (purge {model: home}) reads both again; within the TTL they are cached', async () => {
  const answers: Answers = { home: { es: fixture('v5-home') }, caseStudies: { es: fixture('v5-case-studies') } };
  const cms = await strapiWith(answers);
  const { content } = contentFrom(cms, { ttlMs: 3_600_000 });
  await content.getHome('es');
  await content.listCaseStudies('es');
  const readsBefore = cms.reads().length;
  await content.getHome('es');
  await content.listCaseStudies('es');
  expect(cms.reads()).toHaveLength(readsBefore);
  content.purge({ model: 'home' });
  await content.getHome('es');
  await content.listCaseStudies('es');
  expect(
    cms
      .reads()
      .map((r) => r.path)
      .slice(readsBefore),
  ).toEqual(['/api/home', '/api/case-studies']);
});

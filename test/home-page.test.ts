// The home page as a visitor gets it (supertest): its sections in both languages, its figures,
// logos and case studies from the content source, the private area's real flow, the practices'
// links; the call to action of every public page; the 404 page that helps.
import request from 'supertest';
import { expect, test } from 'vitest';
import enMessages from '../locales/en/common.json' with { type: 'json' };
import esMessages from '../locales/es/common.json' with { type: 'json' };
import { loadEmbeddedContent } from '../server/content/embedded.ts';
import type { ContentSource } from '../server/content/source.ts';
import { PATHS } from '../server/base/paths.ts';
import { localeHref } from '../shared/locales.ts';
import type { CaseStudy, HomeContent } from '../shared/page-data.ts';
import { PRACTICES } from '../shared/practices.ts';
import { TRANSITIONS, type ProjectState } from '../shared/projects.ts';
import { createTestApp, ORIGIN, testApp } from './helpers/app.ts';
import { revealStreamed } from './helpers/streamed-html.ts';
import { addUser, DEFAULT_PASSWORD } from './helpers/users.ts';
import { captureLogger, fixture, LEAST_PRIVILEGE, paginate, sendJson, sendStrapiError, startFakeStrapi } from './cms/fake-strapi.ts';

const MESSAGES = { es: esMessages, en: enMessages } as const;

/** The page's <main>, where every section of the page is (streamed ones in their place, as a browser shows them). */
function mainOf(streamed: string): string {
  const html = revealStreamed(streamed);
  const start = html.indexOf('<main');
  const end = html.indexOf('</main>');
  expect(start, 'the page has a <main>').toBeGreaterThan(-1);
  return html.slice(start, end);
}

/** Text of every element of a tag, in order, entities decoded enough for these texts. */
function texts(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&#x27;|&#39;/g, "'")
      .trim(),
  );
}

/** The section whose heading has this id. */
function section(html: string, headingId: string): string {
  const at = html.indexOf(`aria-labelledby="${headingId}"`);
  expect(at, `a section labelled by #${headingId}`).toBeGreaterThan(-1);
  const end = html.indexOf('</section>', at);
  return html.slice(at, end);
}

const FIGURES: HomeContent = {
  figures: [
    { value: '777', label: 'figure from the content source' },
    { value: '12 days', label: 'another figure' },
  ],
  logos: [{ src: '/assets/content/0123456789abcdef.svg', width: 240, height: 96, alt: 'Client Of The Test' }],
  sample: false,
};

function caseStudy(fields: Partial<CaseStudy> = {}): CaseStudy {
  return {
    slug: 'test-story',
    locale: 'en',
    title: 'A story from the content source',
    client: 'Test Client',
    sector: 'Testing',
    practice: 'compliance',
    result: { value: '−99 %', label: 'bugs left' },
    quote: 'The quote of the test.',
    quoteBy: 'Tess Ter, tester',
    html: '<p>What was done, in the test.</p>',
    challenge: null,
    figures: [],
    sample: false,
    ...fields,
  };
}

/** The embedded content with the home's figures and case studies of the test. */
async function contentWithHome(home: Partial<Pick<ContentSource, 'getHome' | 'listCaseStudies'>>): Promise<ContentSource> {
  const embedded = await loadEmbeddedContent(PATHS.content);
  return { ...embedded, ...home };
}

/** The links of some markup as [href, text] (whatever other attributes they carry: React Router's data-discover…). */
function links(html: string): [string, string][] {
  return [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '')]);
}

test.each(['es', 'en'] as const)(
  'the home page (%s) shows its hero, the clients’ logos, the practices, how it works, figures, case studies and the call to action',
  async (locale) => {
    const t = MESSAGES[locale];
    const res = await request(await testApp()).get(localeHref('/', locale));
    expect(res.status).toBe(200);
    const main = mainOf(res.text);
    expect(texts(main, 'h1')).toEqual([t.home.hero.title]);
    expect(texts(main, 'h2')).toEqual([
      t.home.logos.title,
      t.home.services.title,
      t.home.how.title,
      t.home.results.figures,
      t.home.results.cases,
      t.cta.title,
    ]);
  },
);

test.each(['es', 'en'] as const)(
  'the home page (%s) shows the figures, logos and case studies of content/home and content/case-studies',
  async (locale) => {
    const content = await loadEmbeddedContent(PATHS.content);
    const home = (await content.getHome(locale))!;
    const main = mainOf((await request(await testApp()).get(localeHref('/', locale))).text);
    const figures = section(main, 'figures-title');
    expect(texts(figures, 'span').filter((_, i) => i % 2 === 0)).toEqual(home.figures.map((f) => f.value));
    expect(texts(figures, 'span').filter((_, i) => i % 2 === 1)).toEqual(home.figures.map((f) => f.label));
    const logos = section(main, 'logos-title');
    expect([...logos.matchAll(/alt="([^"]+)"/g)].map((m) => m[1])).toEqual(home.logos.map((l) => l.alt));
    const studies = await content.listCaseStudies(locale);
    expect(texts(section(main, 'cases-title'), 'h3')).toEqual(studies.map((s) => s.title));
    // The shipped content is sample content, and the page says so.
    expect(texts(main, 'p').filter((p) => p === MESSAGES[locale].home.sample)).toHaveLength(3);
  },
);

test('figures, logos and case studies are the content source’s, as it gives them', async () => {
  const content = await contentWithHome({ getHome: async () => FIGURES, listCaseStudies: async () => [caseStudy()] });
  const { app } = await createTestApp(undefined, { content });
  const main = mainOf((await request(app).get('/en')).text);
  expect(main).toContain('<span class="figure-value">777</span> <span class="figure-label">figure from the content source</span>');
  expect(main).toContain('<span class="figure-value">12 days</span> <span class="figure-label">another figure</span>');
  expect(main).toMatch(
    /<img src="\/assets\/content\/0123456789abcdef\.svg" width="240" height="96" alt="Client Of The Test" loading="lazy" decoding="async"\/>/,
  );
  const story = section(main, 'cases-title');
  for (const text of [
    'A story from the content source',
    'Test Client · Testing',
    '<p>What was done, in the test.</p>',
    'The quote of the test.',
    'Tess Ter, tester',
    '−99 %',
    'bugs left',
  ]) {
    expect(story).toContain(text);
  }
  expect(story).toContain('href="/practice-icons.svg#compliance"');
  // Not sample content: no notice.
  expect(main).not.toContain(enMessages.home.sample);
});

test('the home page shows at most three case studies, in the source’s order', async () => {
  const studies = ['one', 'two', 'three', 'four'].map((slug) => caseStudy({ slug, title: `Story ${slug}` }));
  const { app } = await createTestApp(undefined, { content: await contentWithHome({ listCaseStudies: async () => studies }) });
  expect(texts(section(mainOf((await request(app).get('/en')).text), 'cases-title'), 'h3')).toEqual([
    'Story one',
    'Story two',
    'Story three',
  ]);
});

const NO_HOME: [string, Pick<ContentSource, 'getHome' | 'listCaseStudies'>][] = [
  ['has none', { getHome: async () => null, listCaseStudies: async () => [] }],
  ['fails', { getHome: () => Promise.reject(new Error('CMS down')), listCaseStudies: () => Promise.reject(new Error('CMS down')) }],
];

test.each(NO_HOME)(
  'when the content source %s, the home page still shows its other sections, without figures, logos or case studies',
  async (_case, home) => {
    const { app } = await createTestApp(undefined, { content: await contentWithHome(home) });
    const res = await request(app).get('/en');
    expect(res.status).toBe(200);
    expect(texts(mainOf(res.text), 'h2')).toEqual([enMessages.home.services.title, enMessages.home.how.title, enMessages.cta.title]);
  },
);

test('the render cache never serves a home whose content changed (its data is part of the key)', async () => {
  let figures: HomeContent = FIGURES;
  const { app } = await createTestApp(
    { RENDER_CACHE_MB: '8' },
    { content: await contentWithHome({ getHome: async (): Promise<HomeContent> => figures }) },
  );
  for (let i = 0; i < 3; i++) expect((await request(app).get('/en')).text).toContain('>777<');
  figures = { ...FIGURES, figures: [{ value: '888', label: 'a new figure' }] };
  const after = (await request(app).get('/en')).text;
  expect(after).toContain('>888<');
  expect(after).not.toContain('>777<');
});

/** The owner's path through the states (shared/projects.ts): brief, then each move's `to`. */
function ownersPath(): ProjectState[] {
  const moves = [TRANSITIONS.send_proposal, TRANSITIONS.accept, TRANSITIONS.deliver, TRANSITIONS.close];
  return ['brief', ...moves.map((move) => move.to)];
}

test.each(['es', 'en'] as const)(
  'how it works (%s) follows the private area: the owner’s steps go brief → proposal → accepted → delivered → closed, named as the area names each state; the expert’s four steps',
  async (locale) => {
    const t = MESSAGES[locale];
    const how = section(mainOf((await request(await testApp()).get(localeHref('/', locale))).text), 'how-title');
    expect(ownersPath()).toEqual(['brief', 'proposal', 'active', 'delivered', 'closed']);
    // Each state badge: "In your area:" for screen readers, then the state's name.
    const badges = [...how.matchAll(/<p class="step-state"><span class="visually-hidden">([\s\S]*?)<\/span>([^<]+)<\/p>/g)];
    expect(badges.map((m) => m[1]!.replace(/<!-- -->/g, '').trim())).toEqual(ownersPath().map(() => t.home.how.stateLabel));
    const states = badges.map((m) => m[2]);
    expect(states).toEqual(ownersPath().map((state) => t.projects.states[state]));
    expect(texts(how, 'h3')).toEqual([t.home.how.clients.title, t.home.how.experts.title]);
    expect(texts(how, 'h4')).toEqual([
      ...ownersPath().map((state) => t.home.how.clients.steps[state as keyof typeof t.home.how.clients.steps].title),
      ...(['profile', 'assigned', 'work', 'deliver'] as const).map((step) => t.home.how.experts.steps[step].title),
    ]);
  },
);

test.each(['es', 'en'] as const)(
  'each practice (%s) has its icon (hidden from assistive technology) and leads to its own page',
  async (locale) => {
    const t = MESSAGES[locale];
    const practices = section(mainOf((await request(await testApp()).get(localeHref('/', locale))).text), 'services-title');
    for (const practice of PRACTICES) {
      expect(links(practices)).toContainEqual([localeHref(`/practices/${practice}`, locale), t.home.services.items[practice].title]);
      expect(practices).toContain(
        `<svg class="practice-icon" width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><use href="/practice-icons.svg#${practice}"></use></svg>`,
      );
    }
  },
);

test.each([
  ['/Contact?practice=data', 'Consulta sobre Datos y analítica'],
  ['/en/Contact?practice=sustainability', 'About Sustainability'],
  ['/en/Contact?practice=marketing', ''],
  ['/en/Contact', ''],
])('the contact form’s subject on %s is filled in with the practice (only a practice of the company): "%s"', async (url, subject) => {
  const res = await request(await testApp()).get(url);
  expect(res.status).toBe(200);
  expect(res.text).toMatch(new RegExp(`<input[^>]*name="subject"[^>]*value="${subject}"`));
});

test('the hero’s illustration is a file of its own with its size, coloured by the page (not drawn by the page’s script)', async () => {
  const app = await testApp();
  const hero = section(mainOf((await request(app).get('/')).text), 'hero-title');
  expect(hero).toContain('<svg class="hero-art" width="560" height="440" viewBox="0 0 560 440" aria-hidden="true" focusable="false">');
  const layers = [...hero.matchAll(/<use class="art-([a-z-]+)" href="\/hero-art\.svg#\1" width="560" height="440">/g)].map((m) => m[1]);
  expect(layers).toEqual(['soft', 'surface', 'accent', 'ink', 'on-accent']);
  const file = await request(app).get('/hero-art.svg');
  expect(file.status).toBe(200);
  expect(file.headers['content-type']).toMatch(/^image\/svg\+xml/);
  for (const layer of layers) expect(String(file.body)).toContain(`<symbol id="${layer}" viewBox="0 0 560 440">`);
  const icons = await request(app).get('/practice-icons.svg');
  expect(icons.status).toBe(200);
  for (const practice of PRACTICES) expect(String(icons.body)).toContain(`<symbol id="${practice}" viewBox="0 0 24 24">`);
});

test('the texts of the home page, the call to action and the 404 page exist in both languages', () => {
  const shape = (value: unknown): unknown =>
    typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)])) : typeof value;
  expect(shape(enMessages.home)).toEqual(shape(esMessages.home));
  expect(shape(enMessages.cta)).toEqual(shape(esMessages.cta));
  expect(shape(enMessages.errors)).toEqual(shape(esMessages.errors));
  expect(enMessages.contact.practiceSubject).toContain('{{practice}}');
  expect(esMessages.contact.practiceSubject).toContain('{{practice}}');
});

// The call to action: every public page ends with it (the contact page offers only the private area).
const CTA_PAGES = [
  { url: '/', locale: 'es', onContact: false },
  { url: '/en', locale: 'en', onContact: false },
  { url: '/blog', locale: 'es', onContact: false },
  { url: '/en/blog', locale: 'en', onContact: false },
  { url: '/blog/tag/proyectos', locale: 'es', onContact: false },
  { url: '/blog/web-accessibility-2026', locale: 'es', onContact: false },
  { url: '/en/blog/web-accessibility-2026', locale: 'en', onContact: false },
  { url: '/legal', locale: 'es', onContact: false },
  { url: '/privacy', locale: 'es', onContact: false },
  { url: '/en/cookies', locale: 'en', onContact: false },
  { url: '/en/responsible', locale: 'en', onContact: false },
  { url: '/Contact', locale: 'es', onContact: true },
  { url: '/en/Contact', locale: 'en', onContact: true },
] as const;

test.each(CTA_PAGES)('the public page $url ends with the call to action', async ({ url, locale, onContact }) => {
  const t = MESSAGES[locale];
  const res = await request(await testApp()).get(url);
  expect(res.status).toBe(200);
  const main = mainOf(res.text);
  const band = section(main, 'cta-title');
  // After the page's own content: the last section of <main>.
  expect(main.lastIndexOf('<section')).toBe(main.lastIndexOf('<section class="cta-band" aria-labelledby="cta-title">'));
  const prefix = locale === 'es' ? '' : '/en';
  expect(texts(band, 'h2')).toEqual([onContact ? t.cta.contactPageTitle : t.cta.title]);
  expect(links(band)).toEqual([...(onContact ? [] : [[`${prefix}/Contact`, t.cta.contact]]), [`${prefix}/login`, t.cta.login]]);
});

test.each(['/login', '/en/login', '/nope', '/en/notFound', '/forgotPassword'])('%s has no call to action band', async (url) => {
  const res = await request(await testApp()).get(url);
  expect(res.text).not.toContain('cta-band');
});

test('signed in, the call to action leads to the user’s own area instead of the login', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN' });
  const login = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'ada', password: DEFAULT_PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const band = section(mainOf((await request(app).get('/en/blog').set('Cookie', cookie)).text), 'cta-title');
  expect(links(band)).toContainEqual(['/en/admin', enMessages.cta.myArea]);
  expect(band).not.toContain('/en/login');
});

// The 404 page: it says what happened and helps the visitor on.
const NOT_FOUND = [
  { url: '/no-such-page', locale: 'es' },
  { url: '/notFound', locale: 'es' },
  { url: '/en/no-such-page', locale: 'en' },
  { url: '/en/notFound', locale: 'en' },
  { url: '/en/blog/no-such-post', locale: 'en' },
] as const;

test.each(NOT_FOUND)(
  'the 404 page $url stays a 404 that search engines do not index, and offers the blog’s search, home, blog, contact and the practices',
  async ({ url, locale }) => {
    const t = MESSAGES[locale];
    const prefix = locale === 'es' ? '' : '/en';
    const res = await request(await testApp()).get(url);
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    const main = mainOf(res.text);
    expect(texts(main, 'h1')).toEqual([t.errors.notFound]);
    const form = /<form ([^>]*)>/.exec(main)?.[1] ?? '';
    for (const attribute of ['class="blog-search"', 'method="get"', `action="${prefix}/blog"`, 'role="search"'])
      expect(form).toContain(attribute);
    expect(main).toMatch(/<input id="blog-q" type="search"[^>]* name="q"/);
    const links = [...main.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '')]);
    expect(links).toEqual([
      [prefix || '/', t.errors.backHome],
      [`${prefix}/blog`, t.errors.blogLink],
      [`${prefix}/Contact`, t.errors.contactLink],
      ...PRACTICES.map((practice) => [`${prefix}/practices/${practice}`, t.home.services.items[practice].title]),
    ]);
  },
);

test('a 500 error page keeps its plain "back to the home page" (the help is for pages not found)', async () => {
  const { app } = await createTestApp(undefined, {
    content: await contentWithHome({ listPosts: () => Promise.reject(new Error('boom')) } as Partial<ContentSource>),
  });
  const res = await request(app).get('/en/blog');
  expect(res.status).toBe(500);
  expect(res.text).not.toContain('blog-search');
  expect(res.text).toContain(enMessages.errors.backHome);
});

test('with Strapi and no find permission on case-study, the home renders without the case studies and a warning says why', async () => {
  const cms = await startFakeStrapi(
    (req, res) => {
      if (req.path === '/api/home') return sendJson(res, 200, fixture('v5-home'));
      if (req.path === '/api/case-studies')
        return sendJson(res, 200, paginate((fixture('v5-case-studies') as { data: unknown[] }).data, req.query));
      sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
    },
    { access: { ...LEAST_PRIVILEGE, public: LEAST_PRIVILEGE.public.filter((p) => p !== 'case-study.find') } },
  );
  const log = captureLogger();
  const { app } = await createTestApp({ CMS_URL: cms.url }, { logger: log.logger });
  const res = await request(app).get('/');
  expect(res.status).toBe(200);
  const main = mainOf(res.text);
  expect(texts(main, 'h2')).toEqual([
    esMessages.home.logos.title,
    esMessages.home.services.title,
    esMessages.home.how.title,
    esMessages.home.results.figures,
    esMessages.cta.title,
  ]);
  expect(main).toContain('<span class="figure-value">+200</span>');
  expect(log.warnings().map((w) => w.msg)).toContainEqual(expect.stringMatching(/case-studies.*403 \(the Public role may not read it/));
});

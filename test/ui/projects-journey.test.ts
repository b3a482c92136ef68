// A project's whole life in the private area without JavaScript, on the app in this process
// (docs/decisions/047): every step is a plain form post answered 303 and the page loaded again
// (`?done=<intent>`), accepting, delivering with a milestone open and closing ask first on a
// confirmation panel the server renders. Twice: in Spanish by an organisation (with a procurement
// reference) and in English by a client. Every step checks what the person is shown; an outsider
// gets the 404 page. The same life with JavaScript (JSON answers, no reload, dialogs, the page
// measured at 1366 and 390 px) is test/e2e/projects-journey.test.ts's.
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf, type ChosenFile, type PlainBrowser, type PlainPage } from '../helpers/plain-browser.ts';
import { scaled } from '../helpers/time-scale.ts';
import { addUser } from '../helpers/users.ts';

type Locale = 'es' | 'en';
type Person = { userName: string; role: 'ADMIN' | 'CLI' | 'ORG' | 'CONS'; name: string; lastName: string };
type State = 'brief' | 'proposal' | 'active' | 'delivered' | 'closed';

const PASSWORD = 'journey horse 1';
const ADMIN: Person = { userName: 'pj-admin', role: 'ADMIN', name: 'Adela', lastName: 'Gestora' };
const CLIENT: Person = { userName: 'pj-client', role: 'CLI', name: 'Clara', lastName: 'Compradora' };
const ORG: Person = { userName: 'pj-org', role: 'ORG', name: 'Óscar', lastName: 'Ayuntamiento' };
const EXPERT: Person = { userName: 'pj-expert', role: 'CONS', name: 'Elena', lastName: 'Experta' };
const OUTSIDER: Person = { userName: 'pj-outsider', role: 'CLI', name: 'Otto', lastName: 'Ajeno' };
const fullName = (person: Person) => `${person.name} ${person.lastName}`;

/** What each locale shows at each step (locales/{es,en}/common.json, as the reader sees it). */
const SEES = {
  es: {
    newBrief: 'Nuevo encargo',
    states: { brief: 'Encargo recibido', proposal: 'Propuesta enviada', active: 'En curso', delivered: 'Entregado', closed: 'Cerrado' },
    briefSent: 'Tu encargo se ha enviado',
    proposalSent: 'La propuesta se ha enviado',
    waitingAnswer: 'Una propuesta espera tu respuesta',
    waitingDelivery: 'Confirma la entrega para cerrar el proyecto',
    fee: '18.000 €',
    feeV1: '16.000 €',
    openOne: 'Aún queda 1 hito abierto:',
    confirmDeliver: '¿Marcar el trabajo como entregado? Se pedirá al cliente que lo confirme.',
    confirmAccept: '¿Aceptar esta propuesta? Aceptas los honorarios, el plazo y el alcance que siguen.',
    confirmClose: '¿Confirmas que el trabajo se entregó según lo acordado y cierras el proyecto? Quedará en solo lectura.',
    readOnly: 'Este proyecto está «Cerrado»: se conserva como referencia y ya no se puede modificar.',
    notFound: 'No se ha encontrado esta página',
    unread: '1 mensaje sin leer',
  },
  en: {
    newBrief: 'New brief',
    states: { brief: 'Brief received', proposal: 'Proposal sent', active: 'In progress', delivered: 'Delivered', closed: 'Closed' },
    briefSent: 'Your brief has been sent',
    proposalSent: 'The proposal has been sent',
    waitingAnswer: 'A proposal waits for your answer',
    waitingDelivery: 'Confirm the delivery to close the project',
    fee: '€18,000',
    feeV1: '€16,000',
    openOne: '1 milestone is still open:',
    confirmDeliver: 'Mark the work as delivered? The owner is asked to confirm it.',
    confirmAccept: 'Accept this proposal? You agree to the fee, the timeline and the scope below.',
    confirmClose: 'Confirm that the work was delivered as agreed and close the project? It becomes read-only.',
    readOnly: 'This project is read-only (Closed): it is kept for reference and can no longer be changed.',
    notFound: 'This page could not be found',
    unread: '1 unread message',
  },
} as const;

const JOURNEYS = [
  { locale: 'es' as Locale, owner: ORG, label: 'es, an organisation' },
  { locale: 'en' as Locale, owner: CLIENT, label: 'en, a client' },
];

/** A path in the locale's form: Spanish unprefixed, English under /en. */
const at = (locale: Locale, path: string) => (locale === 'es' ? path : `/en${path}`);
const areaOf = (person: Person) => ({ ADMIN: 'admin', CLI: 'client', ORG: 'organization', CONS: 'expert' })[person.role];

/** A small PDF: documents are judged by their first bytes. */
function pdfBytes(text: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}

function one<T extends Element>(page: PlainPage, selector: string): T {
  const element = page.document.querySelector<T>(selector);
  expect(element, `${selector} on ${page.url.pathname}`).toBeTruthy();
  return element!;
}

/** Types into a field (an input, a textarea, a select) of the page. */
function fill(page: PlainPage, selector: string, value: string): void {
  one<HTMLInputElement>(page, selector).value = value;
}

/** The element matching `selector` whose text contains `text`. */
function withText(page: PlainPage, selector: string, text: string): Element | undefined {
  return [...page.document.querySelectorAll(selector)].find((element) => textOf(element).includes(text));
}

function stateOf(page: PlainPage): string {
  return textOf(page.document.querySelector('.project-header .state-badge'));
}

/** Each person's own browser without JavaScript, in the journey's language, signed in through the login form. */
async function signedIn(browser: PlainBrowser, person: Person, locale: Locale): Promise<PlainBrowser> {
  const page = await browser.signIn(person.userName, PASSWORD, at(locale, '/login'));
  // The client entry never runs (it marks <html> with `js`).
  expect(page.document.documentElement.getAttribute('class')).toBeNull();
  return browser;
}

/** Opens a page of the site, which must answer 200. */
async function open(browser: PlainBrowser, path: string): Promise<PlainPage> {
  const page = await browser.open(path);
  expect(page.status, path).toBe(200);
  return page;
}

/** Presses a form's button: the post is answered 303, and the page comes back with `?done=<intent>`. */
async function post(browser: PlainBrowser, page: PlainPage, button: Element, intent: string, files?: Record<string, ChosenFile>) {
  const next = await browser.submit(page, button as HTMLButtonElement, files);
  expect(next.redirects[0], `${intent}: the post was answered with a redirect`).toMatchObject({ method: 'POST', status: 303 });
  expect(next.status, `${intent}: ${next.url.href}`).toBe(200);
  expect(next.url.searchParams.get('done')).toBe(intent);
  return next;
}

/**
 * Presses an action button. Accepting and closing, and delivering with a milestone open
 * (`asks`), ask first: the server answers with the page's confirmation panel (`confirm` its
 * question, restating `terms`), and nothing has changed until it is confirmed. The page comes
 * back with the step's notice at its top.
 */
async function act(browser: PlainBrowser, page: PlainPage, action: string, confirm: string, terms?: string, asks = false) {
  const button = one(page, `button[name="action"][value="${action}"]`);
  let next: PlainPage;
  if (action === 'accept' || action === 'close' || asks) {
    const asking = await browser.submit(page, button as HTMLButtonElement);
    expect(asking.url.searchParams.get('confirm')).toBe(action);
    const panel = one(asking, '.confirm-panel');
    expect(textOf(panel)).toContain(confirm);
    if (terms) expect(textOf(panel)).toContain(terms);
    expect(textOf(asking.document.querySelector('#project-notice')), 'nothing changed yet').toBe('');
    next = await post(browser, asking, one(asking, '.confirm-panel .alert-confirm'), action);
  } else {
    next = await post(browser, page, button, action);
  }
  expect(textOf(next.document.querySelector('#project-notice[role="status"]')).length, `the notice after ${action}`).toBeGreaterThan(20);
  return next;
}

test.each(JOURNEYS)(
  'the journey of a project without JavaScript ($label): brief, proposal, acceptance, expert, messages, document, milestone, delivery, closing; an outsider learns nothing',
  { timeout: scaled(60_000) },
  async ({ locale, owner }) => {
    const { app, db } = await createTestApp();
    for (const person of [ADMIN, CLIENT, ORG, EXPERT, OUTSIDER]) await addUser(db, { ...person, password: PASSWORD });
    const acceptLanguage = locale === 'es' ? 'es-ES' : 'en-GB';
    const browserOf = (person: Person) => signedIn(plainBrowser(app, { acceptLanguage }), person, locale);
    const [ownerBrowser, adminBrowser, expertBrowser, outsiderBrowser] = await Promise.all([
      browserOf(owner),
      browserOf(ADMIN),
      browserOf(EXPERT),
      browserOf(OUTSIDER),
    ]);
    const sees = SEES[locale];
    const expectState = (page: PlainPage, state: State) => expect(stateOf(page), page.url.pathname).toBe(sees.states[state]);
    const tag = `${locale}-nojs`;
    const title = `${locale === 'es' ? 'Cuadro de mando de ventas' : 'Sales dashboard'} (${tag})`;
    const message = {
      expert: `${locale === 'es' ? 'Hola, soy Elena: empiezo el lunes' : 'Hello, Elena here: I start on Monday'} (${tag})`,
      owner: `${locale === 'es' ? 'Perfecto, os dejo el plan' : 'Great, here is the plan'} (${tag})`,
    };
    const milestone = `${locale === 'es' ? 'Taller de arranque' : 'Kick-off workshop'} (${tag})`;
    // Left open: delivering and closing then ask first, naming it.
    const openMilestone = `${locale === 'es' ? 'Formación del equipo' : 'Team training'} (${tag})`;
    const file: ChosenFile = { name: `plan-${tag}.pdf`, type: 'application/pdf', bytes: pdfBytes(`plan ${tag}`) };

    // 1. The owner submits a brief from their dashboard and sees it received.
    let page = await open(ownerBrowser, at(locale, `/${areaOf(owner)}`));
    const newBrief = [...page.document.querySelectorAll('main a')].find((a) => textOf(a) === sees.newBrief);
    page = await ownerBrowser.follow(page, newBrief!);
    expect(page.url.pathname).toBe(at(locale, `/${areaOf(owner)}/projects/new`));
    fill(page, '#brief-title', title);
    fill(page, '#brief-description', 'Un cuadro de mando mensual de ventas por región / A monthly sales dashboard by region.');
    fill(page, '#brief-practice', 'data');
    fill(page, '#brief-budget', '10to50k');
    fill(page, '#brief-deadline', '2026-12-15');
    if (owner.role === 'ORG') fill(page, '#brief-procurementRef', `EXP-2026/${tag}`);
    page = await post(ownerBrowser, page, one(page, 'main form button[type="submit"]'), 'created');
    const id = Number(/\/projects\/([0-9]+)$/.exec(page.url.pathname)?.[1]);
    const projectOf = (person: Person) => at(locale, `/${areaOf(person)}/projects/${id}`);
    expect(page.url.pathname).toBe(projectOf(owner));
    expectState(page, 'brief');
    expect(textOf(one(page, '#project-notice[role="status"]'))).toContain(sees.briefSent);
    expect(textOf(one(page, 'main h1'))).toBe(title);
    if (owner.role === 'ORG') expect(textOf(one(page, '.project-header .project-facts'))).toContain(`EXP-2026/${tag}`);
    // In brief, the owner may only withdraw it.
    expect([...page.document.querySelectorAll<HTMLButtonElement>('button[name="action"]')].map((b) => b.value)).toEqual(['withdraw']);

    // 2. The admin sends a proposal, then a second version that replaces the first, with the fee in the locale's format.
    page = await open(adminBrowser, projectOf(ADMIN));
    expectState(page, 'brief');
    const propose = async (fee: string) => {
      fill(page, '#proposal-scope', 'Modelo de datos, tres informes y formación. / Data model, three reports and training.');
      fill(page, '#proposal-fee', fee);
      fill(page, '#proposal-timeline', 'Seis semanas. / Six weeks.');
      page = await post(adminBrowser, page, one(page, 'section[aria-labelledby="proposal-title"] button[type="submit"]'), 'proposal');
    };
    await propose('16000');
    expect(withText(page, '.proposal-version', 'v1')).toBeTruthy();
    expectState(page, 'proposal');
    expect(textOf(one(page, '#project-notice[role="status"]'))).toContain(sees.proposalSent);
    expect(textOf(one(page, '.project-fee'))).toBe(sees.feeV1);
    // v1 is open: sending again says it replaces it.
    expect(textOf(one(page, 'section[aria-labelledby="proposal-title"] .notice[role="note"]'))).toContain('v2');
    await propose('18000');
    expect(withText(page, '.proposal-version', 'v2')).toBeTruthy();
    expect(textOf(one(page, '.project-fee'))).toBe(sees.fee);
    expect(textOf(one(page, 'section[aria-labelledby="proposal-title"] .proposal-versions summary'))).toContain('1');
    expect(textOf(one(page, 'section[aria-labelledby="proposal-title"] .proposal-versions li'))).toContain(sees.feeV1);

    // 3. The owner sees the proposal waiting for them and accepts (asked first: the fee of v2 restated).
    page = await open(ownerBrowser, projectOf(owner));
    expectState(page, 'proposal');
    expect(textOf(one(page, '.project-next .project-card-waiting'))).toBe(sees.waitingAnswer);
    expect(textOf(one(page, '.project-fee'))).toBe(sees.fee);
    expect(textOf(one(page, '.proposal-version'))).toContain('v2');
    page = await act(ownerBrowser, page, 'accept', sees.confirmAccept, sees.fee);
    expectState(page, 'active');
    expect(page.document.querySelectorAll('.project-card-waiting')).toHaveLength(0);

    // 4. The admin assigns the expert and adds two milestones.
    page = await open(adminBrowser, projectOf(ADMIN));
    expectState(page, 'active');
    // The required select starts on its placeholder, not on the first expert (valid HTML, no accidental choice).
    const choice = one<HTMLSelectElement>(page, '#assign-userName');
    expect([choice.value, choice.options[0]!.value, choice.options[0]!.disabled]).toEqual(['', '', true]);
    fill(page, '#assign-userName', EXPERT.userName);
    page = await post(
      adminBrowser,
      page,
      one(page, 'section[aria-labelledby="experts-title"] form.inline-form button[type="submit"]'),
      'assign',
    );
    expect(textOf(one(page, 'section[aria-labelledby="experts-title"] .project-people li'))).toContain(fullName(EXPERT));
    for (const [name, due] of [
      [milestone, '2026-10-01'],
      [openMilestone, ''],
    ] as const) {
      fill(page, '#milestone-title', name);
      if (due) fill(page, '#milestone-dueDate', due);
      page = await post(
        adminBrowser,
        page,
        one(page, 'section[aria-labelledby="milestones-title"] form.inline-form button[type="submit"]'),
        'milestone',
      );
      expect(withText(page, 'section[aria-labelledby="milestones-title"] .milestone', name), name).toBeTruthy();
    }
    expect(page.document.querySelectorAll('section[aria-labelledby="milestones-title"] .milestone-done')).toHaveLength(0);

    // 5. The expert sees the project and writes to the owner.
    page = await open(expertBrowser, projectOf(EXPERT));
    expectState(page, 'active');
    expect(textOf(one(page, 'main h1'))).toBe(title);
    expect(textOf(one(page, '.project-header .project-facts'))).toContain(fullName(owner));
    fill(page, '#message-body', message.expert);
    page = await post(expertBrowser, page, one(page, 'section[aria-labelledby="messages-title"] button[type="submit"]'), 'message');
    expect(withText(page, '.thread-message', message.expert)).toBeTruthy();

    // 6. The owner's area link shows one unread message until they read the project.
    const dashboard = at(locale, `/${areaOf(owner)}`);
    page = await open(ownerBrowser, dashboard);
    expect(textOf(one(page, '.navbar-cta .navbar-unread [aria-hidden="true"]'))).toBe('1');
    expect(textOf(one(page, '.navbar-cta .navbar-unread .visually-hidden'))).toBe(sees.unread);
    page = await open(ownerBrowser, projectOf(owner));
    expect(textOf(withText(page, '.thread-message', message.expert)?.querySelector('.thread-meta strong'))).toBe(fullName(EXPERT));
    expect(page.document.querySelectorAll('.navbar-unread')).toHaveLength(0);
    page = await open(ownerBrowser, dashboard);
    expect(page.document.querySelectorAll('.navbar-unread')).toHaveLength(0);

    // 7. The owner answers and uploads a document.
    page = await open(ownerBrowser, projectOf(owner));
    fill(page, '#message-body', message.owner);
    page = await post(ownerBrowser, page, one(page, 'section[aria-labelledby="messages-title"] button[type="submit"]'), 'message');
    expect(withText(page, '.thread-message', message.owner)).toBeTruthy();
    page = await post(ownerBrowser, page, one(page, 'section[aria-labelledby="documents-title"] button[type="submit"]'), 'document', {
      [one<HTMLInputElement>(page, '#document-file').name]: file,
    });
    const documentLink = withText(page, 'ul.documents a', file.name);
    const href = documentLink?.getAttribute('href') ?? '';
    expect(href).toMatch(new RegExp(`^/project-files/${id}/[0-9]+$`));

    // 8. The expert reads the answer, downloads the document, ticks the milestone off and delivers (asked first: one is open).
    page = await open(expertBrowser, projectOf(EXPERT));
    expect(textOf(withText(page, '.thread-message', message.owner)?.querySelector('.thread-meta strong'))).toBe(fullName(owner));
    expect(withText(page, 'ul.documents a', file.name)?.getAttribute('href')).toBe(href);
    const download = await expertBrowser.get(href);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    expect(download.headers['content-disposition']).toContain(file.name);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.body.equals(file.bytes)).toBe(true);
    const tick = withText(page, 'section[aria-labelledby="milestones-title"] button[name="milestone"]', milestone) as HTMLButtonElement;
    expect(tick.value).toMatch(/^[0-9]+:done$/);
    page = await post(expertBrowser, page, tick, 'milestoneDone');
    expect(textOf(withText(page, 'section[aria-labelledby="milestones-title"] .milestone-done', milestone))).toContain(fullName(EXPERT));
    page = await act(expertBrowser, page, 'deliver', sees.confirmDeliver, openMilestone, true);
    expectState(page, 'delivered');

    // 9. The owner confirms the delivery from the e-mail's link (the confirmation, restating the fee and the milestone still open) and closes.
    page = await open(ownerBrowser, projectOf(owner));
    expectState(page, 'delivered');
    expect(textOf(one(page, '.project-next .project-card-waiting'))).toBe(sees.waitingDelivery);
    expect(withText(page, '.milestone-done', milestone)).toBeTruthy();
    page = await open(ownerBrowser, `${projectOf(owner)}?confirm=close`);
    const panel = one(page, '.confirm-panel');
    for (const words of [sees.confirmClose, sees.fee, sees.openOne, openMilestone]) expect(textOf(panel)).toContain(words);
    page = await post(ownerBrowser, page, one(page, '.confirm-panel .alert-confirm'), 'close');
    expect(textOf(one(page, '#project-notice[role="status"]')).length).toBeGreaterThan(20);
    expectState(page, 'closed');
    expect(textOf(one(page, '.project-header .notice[role="note"]'))).toBe(sees.readOnly);
    expect(page.document.querySelectorAll('#message-body, #document-file, button[name="action"]')).toHaveLength(0);
    // What was said and shared stays readable.
    expect(withText(page, '.thread-message', message.expert)).toBeTruthy();
    expect(withText(page, 'ul.documents a', file.name)).toBeTruthy();

    // 10. The admin and the expert see it closed too.
    for (const [browser, person] of [
      [adminBrowser, ADMIN],
      [expertBrowser, EXPERT],
    ] as const) {
      page = await open(browser, projectOf(person));
      expectState(page, 'closed');
      expect(page.document.querySelectorAll('#message-body')).toHaveLength(0);
    }

    // 11. Another client learns nothing: the 404 page for the project, its page data and its document.
    const path = at(locale, `/client/projects/${id}`);
    page = await outsiderBrowser.open(path);
    expect(page.status).toBe(404);
    expect(textOf(one(page, 'main h1'))).toBe(sees.notFound);
    expect(page.html).not.toContain(title);
    const data = await outsiderBrowser.get(`/_data?path=${encodeURIComponent(path)}`);
    const answer = JSON.parse(data.body.toString('utf8')) as { kind: string; payload?: { status: number; state: { kind: string } } };
    expect(answer).toMatchObject({ kind: 'payload', payload: { status: 404, state: { kind: 'error' } } });
    expect(JSON.stringify(answer)).not.toContain(title);
    page = await outsiderBrowser.open(href);
    expect(page.status).toBe(404);
    expect(page.headers['content-disposition']).toBeUndefined();
    expect(textOf(one(page, 'main h1'))).toBe(SEES.es.notFound);
  },
);

// A project's whole life in the private area, end to end, in Chromium: an owner submits a brief,
// an admin proposes, the owner accepts, the admin assigns an expert and adds a milestone, the
// expert and the owner talk and exchange a document, the milestone is done, the expert delivers
// and the owner closes. Twice, with JavaScript (forms answered as JSON, the page read again
// without a reload, confirmation dialogs): in Spanish by a client (CLI), in English by an
// organisation (ORG, with a procurement reference). The same life without JavaScript (plain posts
// answered 303) runs in process, on the server's HTML: test/ui/projects-journey.test.ts.
// Every step checks what the person sees; an outsider gets the 404 page; the project page is
// measured and photographed at 1366 and 390 px (/tmp/shots-journey/). This file starts its own
// server with its own users, so that counts (the unread badge) are exact.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, setupSite, waitForHydration } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

type Locale = 'es' | 'en';
type Person = { userName: string; role: 'ADMIN' | 'CLI' | 'ORG' | 'CONS'; name: string; lastName: string };

const PASSWORD = 'journey horse 1';
const ADMIN: Person = { userName: 'pj-admin', role: 'ADMIN', name: 'Adela', lastName: 'Gestora' };
const CLIENT: Person = { userName: 'pj-client', role: 'CLI', name: 'Clara', lastName: 'Compradora' };
const ORG: Person = { userName: 'pj-org', role: 'ORG', name: 'Óscar', lastName: 'Ayuntamiento' };
const EXPERT: Person = { userName: 'pj-expert', role: 'CONS', name: 'Elena', lastName: 'Experta' };
const OUTSIDER: Person = { userName: 'pj-outsider', role: 'CLI', name: 'Otto', lastName: 'Ajeno' };
const fullName = (person: Person) => `${person.name} ${person.lastName}`;

const SHOTS = '/tmp/shots-journey';

/** What each locale shows at each step (locales/{es,en}/common.json, as the reader sees it). */
const SEES = {
  es: {
    signIn: 'Entrar',
    newBrief: 'Nuevo encargo',
    states: { brief: 'Encargo recibido', proposal: 'Propuesta enviada', active: 'En curso', delivered: 'Entregado', closed: 'Cerrado' },
    waitingAnswer: 'Una propuesta espera tu respuesta',
    waitingDelivery: 'Confirma la entrega para cerrar el proyecto',
    fee: '18.000 €',
    feeV1: '16.000 €',
    openOne: 'Aún queda 1 hito abierto:',
    confirmDecline: '¿Rechazar esta propuesta? La empresa puede enviarte otra.',
    confirmDeliver: '¿Marcar el trabajo como entregado? Se pedirá al cliente que lo confirme.',
    confirmAccept: '¿Aceptar esta propuesta? Aceptas los honorarios, el plazo y el alcance que siguen.',
    confirmClose: '¿Confirmas que el trabajo se entregó según lo acordado y cierras el proyecto? Quedará en solo lectura.',
    readOnly: 'Este proyecto está «Cerrado»: se conserva como referencia y ya no se puede modificar.',
    notFound: 'No se ha encontrado esta página',
    unread: '1 mensaje sin leer',
  },
  en: {
    signIn: 'Sign in',
    newBrief: 'New brief',
    states: { brief: 'Brief received', proposal: 'Proposal sent', active: 'In progress', delivered: 'Delivered', closed: 'Closed' },
    waitingAnswer: 'A proposal waits for your answer',
    waitingDelivery: 'Confirm the delivery to close the project',
    fee: '€18,000',
    feeV1: '€16,000',
    openOne: '1 milestone is still open:',
    confirmDecline: 'Decline this proposal? The company may send you a new one.',
    confirmDeliver: 'Mark the work as delivered? The owner is asked to confirm it.',
    confirmAccept: 'Accept this proposal? You agree to the fee, the timeline and the scope below.',
    confirmClose: 'Confirm that the work was delivered as agreed and close the project? It becomes read-only.',
    readOnly: 'This project is read-only (Closed): it is kept for reference and can no longer be changed.',
    notFound: 'This page could not be found',
    unread: '1 unread message',
  },
} as const;

type Journey = { locale: Locale; js: boolean; owner: Person; label: string };
const JOURNEYS: Journey[] = [
  { locale: 'es', js: true, owner: CLIENT, label: 'es, with JavaScript, a client' },
  { locale: 'en', js: true, owner: ORG, label: 'en, with JavaScript, an organisation' },
];

/** A path in the locale's form: Spanish unprefixed, English under /en. */
function at(locale: Locale, path: string): string {
  return locale === 'es' ? path : `/en${path}`;
}

function areaOf(person: Person): string {
  return { ADMIN: 'admin', CLI: 'client', ORG: 'organization', CONS: 'expert' }[person.role];
}

/** A small PDF: documents are judged by their first bytes. */
function pdfBytes(text: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}

/** Text as read on the screen: one space for any run of white space (euros come with a no-break space). */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

async function waitForText(locator: Locator, text: string): Promise<void> {
  await locator.filter({ hasText: text }).first().waitFor();
}

const site = setupSite({ users: [ADMIN, CLIENT, ORG, EXPERT, OUTSIDER], password: PASSWORD });
let outsider: BrowserContext;
const measurements: unknown[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  outsider = (await signIn(OUTSIDER, 'es', true)).context();
}, scaled(60_000));

afterAll(() => {
  writeFileSync(join(SHOTS, 'measurements.json'), `${JSON.stringify(measurements, null, 2)}\n`);
});

/** A browser context of its own for one person, signed in through the login page. */
async function signIn(person: Person, locale: Locale, js: boolean): Promise<Page> {
  const context = await site.newContext({
    viewport: DESKTOP,
    javaScriptEnabled: js,
    locale: locale === 'es' ? 'es-ES' : 'en-GB',
    consent: true,
  });
  context.setDefaultTimeout(scaled(10_000));
  const page = await context.newPage();
  await page.goto(at(locale, '/login'));
  if (js) await waitForHydration(page);
  await page.locator('#login-identifier').fill(person.userName);
  await page.locator('#login-password').fill(PASSWORD);
  await page.locator('main form').getByRole('button', { name: SEES[locale].signIn }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  // Without JavaScript the client entry never runs (it marks <html> with `js`).
  if (!js) expect(await page.locator('html').getAttribute('class')).toBeNull();
  return page;
}

/** Opens a page in full (a reload for JavaScript, too) and waits until it is interactive. */
async function open(page: Page, path: string, js: boolean): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  if (js) await waitForHydration(page);
}

/**
 * Submits a form of the page by `click` and waits for the outcome to show. With JavaScript the
 * post is answered as JSON and the page reads its data again (/_data): no full page load, so a
 * marker set on `window` before is still there. Without it the post is answered 303 and the
 * browser loads the page again, with `?done=<intent>`.
 */
async function submit(page: Page, js: boolean, click: () => Promise<void>, outcome: Locator, intent: string): Promise<void> {
  if (js) {
    await page.evaluate(() => Object.assign(window, { __marker: 1 }));
    let posted = false;
    const answered = page.waitForResponse((r) => r.request().method() === 'POST');
    // The page read again after the form (its `done` in the URL), not a live update's read.
    const reread = page.waitForResponse((r) => {
      if (r.request().method() === 'POST') posted = true;
      const url = new URL(r.url());
      return posted && url.pathname === '/_data' && new URL(url.searchParams.get('path') ?? '/', url).searchParams.get('done') === intent;
    });
    // Settled here too, so that a step failing before it is awaited leaves no stray rejection.
    answered.catch(() => undefined);
    reread.catch(() => undefined);
    await click();
    const answer = await answered;
    expect(answer.status(), `${intent}: ${await answer.text()}`).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true });
    await reread;
    // Shown when the navigation is done (a live update may have shown the outcome before it).
    await page.locator('main[data-load-state="done"]').waitFor();
    await page.locator('[data-transition-phase="idle"]').waitFor();
    await outcome.waitFor();
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), 'no full page load').toBe(1);
  } else {
    const landed = page.waitForResponse(
      (r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame() && (r.status() < 300 || r.status() >= 400),
    );
    landed.catch(() => undefined);
    await click();
    const response = await landed;
    expect(response.status(), `${intent}: ${response.url()}`).toBe(200);
    expect(response.request().redirectedFrom()?.method(), 'the post was answered with a redirect').toBe('POST');
    expect(new URL(response.url()).searchParams.get('done')).toBe(intent);
    await outcome.waitFor();
  }
}

/**
 * Clicks an action button; with JavaScript a dialog asks first (`confirm` is its question), and is
 * confirmed. Accepting and closing ask without JavaScript too: the server answers with the page's
 * confirmation panel. Where the move binds to money (`terms`), the question restates the fee.
 * The page comes back with the step's notice at its top.
 */
async function act(
  page: Page,
  js: boolean,
  action: string,
  confirm: string | null,
  outcome: Locator,
  terms?: string,
  asksWithoutJs = false,
): Promise<void> {
  const button = page.locator(`button[name="action"][value="${action}"]`);
  if (js && confirm) {
    await button.click();
    const dialog = page.locator('dialog.alert-dialog[open]');
    await waitForText(dialog, confirm);
    if (terms) await waitForText(dialog, terms);
    await submit(page, js, () => dialog.locator('.alert-confirm').click(), outcome, action);
    expect(await dialog.count()).toBe(0);
  } else if (!js && (action === 'accept' || action === 'close' || asksWithoutJs)) {
    await button.click();
    await page.waitForURL((url) => url.searchParams.get('confirm') === action);
    const panel = page.locator('.confirm-panel');
    await waitForText(panel, confirm!);
    if (terms) await waitForText(panel, terms);
    // Nothing changed yet.
    expect(await page.locator('#project-notice').innerText()).toBe('');
    await submit(page, js, () => panel.locator('.alert-confirm').click(), outcome, action);
  } else {
    await submit(page, js, () => button.click(), outcome, action);
  }
  expect((await page.locator('#project-notice[role="status"]').innerText()).length, `the notice after ${action}`).toBeGreaterThan(20);
}

function badge(page: Page): Locator {
  return page.locator('.project-header .state-badge');
}

/** Waits for the state badge to say `state` and checks it says exactly that. */
async function expectState(page: Page, locale: Locale, state: keyof (typeof SEES)['es']['states']): Promise<void> {
  await waitForText(badge(page), SEES[locale].states[state]);
  expect(await textOf(badge(page))).toBe(SEES[locale].states[state]);
}

function stateShown(page: Page, locale: Locale, state: keyof (typeof SEES)['es']['states']): Locator {
  return badge(page).filter({ hasText: SEES[locale].states[state] });
}

/**
 * The page at 1366 px and at a phone's 390 px: screenshots of both, no horizontal overflow on
 * the phone, and the size of the action buttons there (written to measurements.json).
 */
async function photograph(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  try {
    const measured = await page.evaluate(() => {
      const root = document.documentElement;
      const wide = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      const buttons = [...document.querySelectorAll<HTMLButtonElement>('button[name="action"]')].map((b) => {
        const r = b.getBoundingClientRect();
        const visible = r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= root.clientWidth;
        return { action: b.value, width: Math.round(r.width), height: Math.round(r.height), visible };
      });
      // The page's other, smaller buttons (PDF links, remove, tick off), for the report.
      const small = [...document.querySelectorAll('main .button-small')].map((b) => Math.round(b.getBoundingClientRect().height));
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide, buttons, smallButtonHeights: small };
    });
    measurements.push({ name, ...measured });
    expect(measured.scrollWidth, `horizontal overflow at 390 px: ${measured.wide.join(', ')}`).toBeLessThanOrEqual(measured.clientWidth);
    for (const button of measured.buttons) expect(button.visible, `${button.action} visible at 390 px`).toBe(true);
    await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

describe.each(JOURNEYS)('the journey of a project ($label)', ({ locale, js, owner }) => {
  const sees = SEES[locale];
  const tag = `${locale}-${js ? 'js' : 'nojs'}`;
  const title = `${locale === 'es' ? 'Cuadro de mando de ventas' : 'Sales dashboard'} (${tag})`;
  const message = {
    expert: `${locale === 'es' ? 'Hola, soy Elena: empiezo el lunes' : 'Hello, Elena here: I start on Monday'} (${tag})`,
    owner: `${locale === 'es' ? 'Perfecto, os dejo el plan' : 'Great, here is the plan'} (${tag})`,
  };
  const milestone = `${locale === 'es' ? 'Taller de arranque' : 'Kick-off workshop'} (${tag})`;
  // Left open: delivering and closing then ask first, naming it.
  const openMilestone = `${locale === 'es' ? 'Formación del equipo' : 'Team training'} (${tag})`;
  const document = { name: `plan-${tag}.pdf`, bytes: pdfBytes(`plan ${tag}`) };
  const photos = js; // Screenshots of the journeys with JavaScript (one per locale).
  let ownerPage: Page;
  let adminPage: Page;
  let expertPage: Page;
  let id = 0;
  const projectOf = (person: Person) => at(locale, `/${areaOf(person)}/projects/${id}`);

  beforeAll(async () => {
    [ownerPage, adminPage, expertPage] = await Promise.all([
      signIn(owner, locale, js),
      signIn(ADMIN, locale, js),
      signIn(EXPERT, locale, js),
    ]);
  }, scaled(60_000));
  afterAll(async () => {
    await Promise.all([ownerPage, adminPage, expertPage].map((page) => page?.context().close()));
  });

  it('the owner submits a brief from their dashboard and sees it received', async () => {
    const page = ownerPage;
    await open(page, at(locale, `/${areaOf(owner)}`), js);
    await page.locator('main').getByRole('link', { name: sees.newBrief, exact: true }).click();
    await page.waitForURL((url) => url.pathname === at(locale, `/${areaOf(owner)}/projects/new`));
    if (js) await waitForHydration(page);
    await page.locator('#brief-title').fill(title);
    await page.locator('#brief-description').fill('Un cuadro de mando mensual de ventas por región / A monthly sales dashboard by region.');
    await page.locator('#brief-practice').selectOption('data');
    await page.locator('#brief-budget').selectOption('10to50k');
    await page.locator('#brief-deadline').fill('2026-12-15');
    if (owner.role === 'ORG') await page.locator('#brief-procurementRef').fill(`EXP-2026/${tag}`);
    const received = stateShown(page, locale, 'brief');
    await submit(page, js, () => page.locator('main form button[type="submit"]').click(), received, 'created');
    const url = new URL(page.url());
    expect(url.searchParams.get('done')).toBe('created');
    id = Number(/\/projects\/([0-9]+)$/.exec(url.pathname)?.[1]);
    expect(url.pathname).toBe(projectOf(owner));
    await expectState(page, locale, 'brief');
    // The notice says the brief was sent and what comes next.
    expect(await page.locator('#project-notice[role="status"]').innerText()).toContain(
      locale === 'es' ? 'Tu encargo se ha enviado' : 'Your brief has been sent',
    );
    expect(await textOf(page.locator('main h1'))).toBe(title);
    if (owner.role === 'ORG') expect(await textOf(page.locator('.project-header .project-facts'))).toContain(`EXP-2026/${tag}`);
    // In brief, the owner may only withdraw it.
    expect(await page.locator('button[name="action"]').evaluateAll((els) => els.map((el) => (el as HTMLButtonElement).value))).toEqual([
      'withdraw',
    ]);
  });

  it('the admin sends a proposal, then a second version that replaces the first, with the fee in the locale’s format', async () => {
    const page = adminPage;
    await open(page, projectOf(ADMIN), js);
    await expectState(page, locale, 'brief');
    const section = page.locator('section[aria-labelledby="proposal-title"]');
    const send = async (fee: string, version: string) => {
      await page.locator('#proposal-scope').fill('Modelo de datos, tres informes y formación. / Data model, three reports and training.');
      await page.locator('#proposal-fee').fill(fee);
      await page.locator('#proposal-timeline').fill('Seis semanas. / Six weeks.');
      await submit(
        page,
        js,
        () => section.locator('button[type="submit"]').click(),
        section.locator('.proposal-version', { hasText: version }),
        'proposal',
      );
    };
    await send('16000', 'v1');
    await expectState(page, locale, 'proposal');
    expect(await page.locator('#project-notice[role="status"]').innerText()).toContain(
      locale === 'es' ? 'La propuesta se ha enviado' : 'The proposal has been sent',
    );
    expect(await textOf(page.locator('.project-fee'))).toBe(sees.feeV1);
    // v1 is open: sending again says it replaces it.
    expect(await section.locator('.notice[role="note"]').innerText()).toContain('v2');
    await send('18000', 'v2');
    expect(await textOf(page.locator('.project-fee'))).toBe(sees.fee);
    expect(await section.locator('.proposal-versions summary').innerText()).toContain('1');
    // Folded in a disclosure: read its text, not what is shown.
    expect(await textOf(section.locator('.proposal-versions li'))).toContain(sees.feeV1);
  });

  it('the owner sees the proposal waiting for them, may think twice about declining, and accepts', async () => {
    const page = ownerPage;
    await open(page, projectOf(owner), js);
    await expectState(page, locale, 'proposal');
    expect(await textOf(page.locator('.project-next .project-card-waiting'))).toBe(sees.waitingAnswer);
    expect(await textOf(page.locator('.project-fee'))).toBe(sees.fee);
    if (photos) await photograph(page, `${locale}-owner-proposal`);
    if (js) {
      // Declining asks first; "not now" leaves the proposal as it was.
      await page.locator('button[name="action"][value="decline"]').click();
      const dialog = page.locator('dialog.alert-dialog[open]');
      await waitForText(dialog, sees.confirmDecline);
      if (photos) await page.screenshot({ path: join(SHOTS, `${locale}-owner-decline-dialog-1366.png`) });
      await dialog.locator('.alert-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      await expectState(page, locale, 'proposal');
    }
    // The owner reads v2 (v1 is listed as replaced) and accepting restates v2's fee.
    expect(await page.locator('.proposal-version').innerText()).toContain('v2');
    await act(page, js, 'accept', sees.confirmAccept, stateShown(page, locale, 'active'), sees.fee);
    await expectState(page, locale, 'active');
    expect(await page.locator('.project-card-waiting').count()).toBe(0);
  });

  it('the admin assigns the expert and adds a milestone', async () => {
    const page = adminPage;
    await open(page, projectOf(ADMIN), js);
    await expectState(page, locale, 'active');
    const experts = page.locator('section[aria-labelledby="experts-title"]');
    await page.locator('#assign-userName').selectOption(EXPERT.userName);
    if (photos) await experts.screenshot({ path: join(SHOTS, `${locale}-admin-assign-form-1366.png`) });
    await submit(
      page,
      js,
      () => experts.locator('form.inline-form button[type="submit"]').click(),
      experts.locator('.project-people li', { hasText: fullName(EXPERT) }),
      'assign',
    );
    expect(await textOf(experts.locator('.project-people li').first())).toContain(fullName(EXPERT));
    const milestones = page.locator('section[aria-labelledby="milestones-title"]');
    await page.locator('#milestone-title').fill(milestone);
    await page.locator('#milestone-dueDate').fill('2026-10-01');
    await submit(
      page,
      js,
      () => milestones.locator('form.inline-form button[type="submit"]').click(),
      milestones.locator('.milestone', { hasText: milestone }),
      'milestone',
    );
    await page.locator('#milestone-title').fill(openMilestone);
    await submit(
      page,
      js,
      () => milestones.locator('form.inline-form button[type="submit"]').click(),
      milestones.locator('.milestone', { hasText: openMilestone }),
      'milestone',
    );
    expect(await milestones.locator('.milestone-done').count()).toBe(0);
    if (photos) await photograph(page, `${locale}-admin-active`);
  });

  it('the expert sees the project and writes to the owner', async () => {
    // The owner is not looking at the project: an open project page reads a new message as it
    // arrives (live updates), and the next test counts it unread.
    await ownerPage.goto('about:blank');
    const page = expertPage;
    await open(page, projectOf(EXPERT), js);
    await expectState(page, locale, 'active');
    expect(await textOf(page.locator('main h1'))).toBe(title);
    expect(await textOf(page.locator('.project-header .project-facts'))).toContain(fullName(owner));
    await page.locator('#message-body').fill(message.expert);
    await submit(
      page,
      js,
      () => page.locator('section[aria-labelledby="messages-title"] button[type="submit"]').click(),
      page.locator('.thread-message', { hasText: message.expert }),
      'message',
    );
  });

  it('the owner’s area link shows one unread message until they read the project', async () => {
    const page = ownerPage;
    const dashboard = at(locale, `/${areaOf(owner)}`);
    await open(page, dashboard, js);
    const badge = page.locator('.navbar-cta .navbar-unread');
    expect(await textOf(badge.locator('[aria-hidden="true"]'))).toBe('1');
    expect(await textOf(badge.locator('.visually-hidden'))).toBe(sees.unread);
    await open(page, projectOf(owner), js);
    const thread = page.locator('.thread-message', { hasText: message.expert });
    expect(await textOf(thread.locator('.thread-meta strong'))).toBe(fullName(EXPERT));
    expect(await page.locator('.navbar-unread').count()).toBe(0);
    await open(page, dashboard, js);
    expect(await page.locator('.navbar-unread').count()).toBe(0);
  });

  it('the owner answers and uploads a document', async () => {
    const page = ownerPage;
    await open(page, projectOf(owner), js);
    await page.locator('#message-body').fill(message.owner);
    await submit(
      page,
      js,
      () => page.locator('section[aria-labelledby="messages-title"] button[type="submit"]').click(),
      page.locator('.thread-message', { hasText: message.owner }),
      'message',
    );
    await page.locator('#document-file').setInputFiles({ name: document.name, mimeType: 'application/pdf', buffer: document.bytes });
    await submit(
      page,
      js,
      () => page.locator('section[aria-labelledby="documents-title"] button[type="submit"]').click(),
      page.locator('ul.documents a', { hasText: document.name }),
      'document',
    );
  });

  it('the expert reads the answer, downloads the document, ticks the milestone off and delivers', async () => {
    const page = expertPage;
    await open(page, projectOf(EXPERT), js);
    const reply = page.locator('.thread-message', { hasText: message.owner });
    expect(await textOf(reply.locator('.thread-meta strong'))).toBe(fullName(owner));
    const link = page.locator('ul.documents a', { hasText: document.name });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^/project-files/${id}/[0-9]+$`));
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(document.name);
    expect(readFileSync(await download.path()).equals(document.bytes)).toBe(true);
    const response = await page.context().request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-disposition']).toMatch(/^attachment;/);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect((await response.body()).equals(document.bytes)).toBe(true);

    const milestones = page.locator('section[aria-labelledby="milestones-title"]');
    const tick = milestones.locator('button[name="milestone"]', { hasText: milestone });
    expect(await tick.getAttribute('value')).toMatch(/^[0-9]+:done$/);
    await submit(page, js, () => tick.click(), milestones.locator('.milestone-done', { hasText: milestone }), 'milestoneDone');
    expect(await textOf(milestones.locator('.milestone-done', { hasText: milestone }))).toContain(fullName(EXPERT));
    if (photos) await photograph(page, `${locale}-expert-active`);

    // One milestone is still open: delivering asks first (without JavaScript too), naming it.
    await act(page, js, 'deliver', sees.confirmDeliver, stateShown(page, locale, 'delivered'), openMilestone, true);
    await expectState(page, locale, 'delivered');
  });

  it('the owner confirms the delivery and closes the project, which becomes read-only', async () => {
    const page = ownerPage;
    await open(page, projectOf(owner), js);
    await expectState(page, locale, 'delivered');
    expect(await textOf(page.locator('.project-next .project-card-waiting'))).toBe(sees.waitingDelivery);
    expect(await textOf(page.locator('.milestone-done', { hasText: milestone }))).toContain(milestone);
    // From the e-mail's button (its link is the confirmation: test/mail/templates.test.ts), which
    // restates the agreed fee and names the milestone still open.
    await open(page, `${projectOf(owner)}?confirm=close#confirm-title`, js);
    const panel = page.locator('.confirm-panel');
    await waitForText(panel, sees.confirmClose);
    expect(await textOf(panel)).toContain(sees.fee);
    expect(await textOf(panel)).toContain(sees.openOne);
    expect(await textOf(panel)).toContain(openMilestone);
    if (photos) await page.screenshot({ path: join(SHOTS, `${locale}-owner-confirm-close-1366.png`) });
    await submit(page, js, () => panel.locator('.alert-confirm').click(), stateShown(page, locale, 'closed'), 'close');
    expect((await page.locator('#project-notice[role="status"]').innerText()).length).toBeGreaterThan(20);
    await expectState(page, locale, 'closed');
    expect(await textOf(page.locator('.project-header .notice[role="note"]'))).toBe(sees.readOnly);
    expect(await page.locator('#message-body').count()).toBe(0);
    expect(await page.locator('#document-file').count()).toBe(0);
    expect(await page.locator('button[name="action"]').count()).toBe(0);
    // What was said and shared stays readable.
    expect(await page.locator('.thread-message', { hasText: message.expert }).count()).toBe(1);
    expect(await page.locator('ul.documents a', { hasText: document.name }).count()).toBe(1);
    if (photos) await photograph(page, `${locale}-owner-closed`);
  });

  it('the admin and the expert see it closed too', async () => {
    for (const [page, person] of [
      [adminPage, ADMIN],
      [expertPage, EXPERT],
    ] as const) {
      await open(page, projectOf(person), js);
      await expectState(page, locale, 'closed');
      expect(await page.locator('#message-body').count()).toBe(0);
    }
  });

  it('another client learns nothing: the 404 page for the project, its page data and its document', async () => {
    const page = await outsider.newPage();
    try {
      const path = at(locale, `/client/projects/${id}`);
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      expect(await textOf(page.locator('main h1'))).toBe(sees.notFound);
      expect(await page.content()).not.toContain(title);

      const data = await outsider.request.get(`/_data?path=${encodeURIComponent(path)}`);
      const answer = (await data.json()) as { kind: string; payload?: { status: number; state: { kind: string } } };
      expect(answer.kind).toBe('payload');
      expect(answer.payload?.status).toBe(404);
      expect(answer.payload?.state.kind).toBe('error');
      expect(JSON.stringify(answer)).not.toContain(title);

      const href = await ownerPage.locator('ul.documents a', { hasText: document.name }).getAttribute('href');
      const file = await page.goto(href!);
      expect(file?.status()).toBe(404);
      expect(file?.headers()['content-disposition']).toBeUndefined();
      expect(await textOf(page.locator('main h1'))).toBe(SEES.es.notFound);
    } finally {
      await page.close();
    }
  });
});

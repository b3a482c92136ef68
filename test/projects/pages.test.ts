// The projects on the site's pages (docs/decisions/013): each form posted to its page without
// JavaScript (303 back, or the page again with the error and what was typed) and with it (JSON),
// the dashboards in the first paint, and the 404 that every outsider gets — for the page, its
// data (/_data) and a document download alike.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createProjects } from '../../server/projects/service.ts';
import { findUser } from '../../server/users/users.ts';
import { UNREAD_BADGE_MAX } from '../../shared/projects.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { DEFAULT_PASSWORD } from '../helpers/users.ts';
import { activeProject, api, PDF, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';
import { signIn } from '../my-account/helpers.ts';

let app: Express;
let tokens: Record<Person, string>;
const cookies = {} as Record<Person, string>;

beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  tokens = await signInEveryone(app, created.db);
  for (const person of Object.keys(PEOPLE) as Person[]) cookies[person] = await signIn(app, PEOPLE[person].userName);
});

const page = (who: Person, path: string) => request(app).get(path).set('Cookie', cookies[who]);
const form = (who: Person, path: string, body: Record<string, string>) =>
  request(app).post(path).set('Cookie', cookies[who]).set('Origin', ORIGIN).type('form').send(body);
const formJson = (who: Person, path: string, body: Record<string, string>) => form(who, path, body).set('Accept', 'application/json');

describe('a brief and a project page without JavaScript', () => {
  test('a client posts a brief: 303 to the project page in their area and locale, which shows it', async () => {
    const res = await form('owner', '/en/client/projects/new', {
      title: 'Stock forecasting',
      description: 'Forecast stock per shop.',
      practice: 'data',
      budget: '',
      wishedStart: '',
      deadline: '',
    });
    expect(res.status).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/en\/client\/projects\/\d+\?done=created#project-notice$/);
    const shown = await page('owner', location);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Stock forecasting');
    expect(shown.text).toContain('Brief received');
  });

  test('a bad brief comes back with 422, each field named, and what was typed', async () => {
    const res = await form('owner', '/client/projects/new', {
      title: 'Half a brief',
      description: '',
      practice: 'astrology',
      deadline: '2027-02-30',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('value="Half a brief"');
    expect(res.text).toContain('Este campo es obligatorio.');
    expect(res.text).toContain('Elige un área.');
    expect(res.text).toContain('Introduce una fecha válida.');
    expect((await api(app, tokens.owner).get('/projects?q=Half')).body.total).toBe(0);
  });

  test('with JavaScript the same brief is answered as JSON, no redirect', async () => {
    const ok = await formJson('org', '/organization/projects/new', {
      title: 'Tender support',
      description: 'A tender for our archive.',
      practice: 'digital',
      procurementRef: 'EXP-7',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, success: 'created' });
    expect(ok.body.redirect).toMatch(/^\/organization\/projects\/\d+\?done=created#project-notice$/);
    const bad = await formJson('org', '/organization/projects/new', { title: '', description: 'x', practice: 'data' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      ok: false,
      form: { form: 'brief', error: { code: 'invalid_request', fields: { title: 'validation.required' } } },
    });
  });

  test('every form of a project page works without JavaScript, from proposal to closed', async () => {
    const id = (await api(app, tokens.owner).post('/projects', { title: 'Pricing study', description: 'Prices.', practice: 'data' })).body
      .id as number;
    const admin = `/admin/projects/${id}`;
    const mine = `/client/projects/${id}`;
    const expertPage = `/expert/projects/${id}`;
    const ok = async (who: Person, path: string, body: Record<string, string>, done: string) => {
      const res = await form(who, path, body);
      expect(res.status, `${done}: ${res.text.slice(0, 200)}`).toBe(303);
      expect(res.headers.location).toMatch(new RegExp(`^${path}\\?done=${done}#`));
    };
    await ok('admin', admin, { intent: 'proposal', scope: 'Survey and model', fee: '19500', timeline: 'Five weeks' }, 'proposal');
    expect((await page('owner', mine)).text).toContain('19.500\u00a0€');
    await ok('owner', mine, { intent: 'action', action: 'accept', confirmed: 'yes', version: '1' }, 'accept');
    await ok('admin', admin, { intent: 'assign', userName: 'eva' }, 'assign');
    await ok('expert', expertPage, { intent: 'milestone', title: 'Survey sent', dueDate: '2027-01-15' }, 'milestone');
    const milestone = (await api(app, tokens.admin).get(`/projects/${id}`)).body.milestones[0].id as number;
    await ok('expert', expertPage, { intent: 'milestoneDone', milestone: `${milestone}:done` }, 'milestoneDone');
    await ok('expert', expertPage, { intent: 'message', body: 'The survey is out.' }, 'message');
    const upload = await request(app)
      .post(expertPage)
      .set('Cookie', cookies.expert)
      .set('Origin', ORIGIN)
      .field('intent', 'document')
      .attach('file', PDF, 'survey.pdf');
    expect(upload.status).toBe(303);
    expect(upload.headers.location).toBe(`${expertPage}?done=document#documents-title`);
    await ok('expert', expertPage, { intent: 'action', action: 'deliver' }, 'deliver');
    await ok('owner', mine, { intent: 'action', action: 'close', confirmed: 'yes' }, 'close');
    const final = (await api(app, tokens.owner).get(`/projects/${id}`)).body;
    expect(final).toMatchObject({ state: 'closed', experts: [{ userName: 'eva' }], documents: [{ name: 'survey.pdf' }] });
    expect(final.milestones[0].doneBy).toBe('eva');
    const closed = await page('owner', mine);
    expect(closed.text).toContain('Este proyecto está «Cerrado»');
    expect(closed.text).not.toContain('id="message-body"');
  });

  test('accepting a proposal without confirmed=yes changes nothing: the page asks, restating fee, timeline and scope', async () => {
    const id = (await api(app, tokens.owner).post('/projects', { title: 'Archive study', description: 'Old files.', practice: 'data' }))
      .body.id as number;
    await api(app, tokens.admin).patch(`/projects/${id}`, {
      action: 'send_proposal',
      proposal: { scope: 'Inventory of the archive', fee: 7800, timeline: 'Three weeks from the start' },
    });
    const mine = `/en/client/projects/${id}`;
    const asked = await form('owner', mine, { intent: 'action', action: 'accept' });
    expect(asked.status).toBe(303);
    expect(asked.headers.location).toBe(`${mine}?confirm=accept#confirm-title`);
    expect((await api(app, tokens.owner).get(`/projects/${id}`)).body.state).toBe('proposal');
    const panel = (await page('owner', asked.headers.location!)).text;
    expect(panel).toContain('id="confirm-title"');
    expect(panel).toContain('€7,800');
    expect(panel).toContain('Three weeks from the start');
    expect(panel).toContain('Inventory of the archive');
    expect(panel).toMatch(/<input type="hidden" name="confirmed" value="yes"\/>/);
    // The page's own form carries an empty confirmation: only the panel or the dialog says yes.
    expect(panel).toMatch(/<input type="hidden" name="confirmed" value=""\/>/);
    const made = await form('owner', mine, { intent: 'action', action: 'accept', confirmed: 'yes', version: '1' });
    expect(made.headers.location).toBe(`${mine}?done=accept#project-notice`);
    expect((await api(app, tokens.owner).get(`/projects/${id}`)).body.state).toBe('active');
    const notice = (await page('owner', made.headers.location!)).text;
    expect(notice).toMatch(
      /<div id="project-notice" class="project-notice" role="status" tabindex="-1"><p class="form-success">You have accepted the proposal/,
    );
  });

  test('delivering with a milestone still open asks first, naming it, and the history says how many were open', async () => {
    const id = await activeProject(app, tokens);
    await api(app, tokens.expert).post(`/projects/${id}/milestones`, { title: 'Final report', dueDate: '2027-02-01' });
    const path = `/en/expert/projects/${id}`;
    const asked = await form('expert', path, { intent: 'action', action: 'deliver' });
    expect(asked.headers.location).toBe(`${path}?confirm=deliver#confirm-title`);
    expect((await api(app, tokens.admin).get(`/projects/${id}`)).body.state).toBe('active');
    const panel = (await page('expert', asked.headers.location!)).text;
    expect(panel).toContain('1 milestone is still open:');
    expect(panel).toContain('<li>Final report</li>');
    const made = await form('expert', path, { intent: 'action', action: 'deliver', confirmed: 'yes' });
    expect(made.headers.location).toBe(`${path}?done=deliver#project-notice`);
    const history = (await api(app, tokens.admin).get(`/projects/${id}/events`)).body.items as { kind: string; detail: string }[];
    expect(history.find((e) => e.kind === 'state')?.detail).toBe('deliver+1');
    expect((await page('expert', path)).text).toContain('marked the work as delivered with 1 milestone still open');
    // Closing asks again (the fee restated and the milestone named), and is recorded with it too.
    const mine = `/en/client/projects/${id}`;
    const closing = await form('owner', mine, { intent: 'action', action: 'close' });
    expect(closing.headers.location).toBe(`${mine}?confirm=close#confirm-title`);
    expect((await page('owner', closing.headers.location!)).text).toContain('<li>Final report</li>');
    await form('owner', mine, { intent: 'action', action: 'close', confirmed: 'yes' });
    const after = (await api(app, tokens.admin).get(`/projects/${id}/events`)).body.items as { kind: string; detail: string }[];
    expect(after.find((e) => e.kind === 'state')?.detail).toBe('close+1');
    expect((await page('owner', mine)).text).toContain('confirmed the delivery and closed the project with 1 milestone still open');
  });

  test('a brief sent lands on its project with the notice that says so', async () => {
    const res = await form('owner', '/en/client/projects/new', { title: 'Notice study', description: 'A brief.', practice: 'data' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/en\/client\/projects\/\d+\?done=created#project-notice$/);
    expect((await page('owner', res.headers.location!)).text).toContain('Your brief has been sent.');
  });

  test('a refused move comes back as the page with the error, and the project unchanged', async () => {
    const id = await activeProject(app, tokens);
    const res = await form('owner', `/client/projects/${id}`, { intent: 'action', action: 'deliver' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('No puedes hacer esto.');
    const unknown = await form('owner', `/client/projects/${id}`, { intent: 'launch' });
    expect(unknown.status).toBe(400);
    expect((await api(app, tokens.owner).get(`/projects/${id}`)).body.state).toBe('active');
  });

  test.each(['9999999999:done', '2147483648:done', '0:done', '-1:done', '1.5:done', 'x:done', '7:finish', ''])(
    'a milestone answer naming no possible milestone (%j) is a 400 "Choose a milestone", never a 500',
    async (milestone) => {
      const id = await activeProject(app, tokens);
      const res = await form('admin', `/admin/projects/${id}`, { intent: 'milestoneDone', milestone });
      expect(res.status).toBe(400);
    },
  );

  test('an expert saves their profile of expertise from their area, with and without JavaScript', async () => {
    const res = await form('expert', '/expert', { practices: 'data', bio: 'Forecasts.', dayRate: '600', availability: 'available' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/expert?saved=expertise#expertise-title');
    expect((await api(app, tokens.expert).get('/me/expertise')).body).toMatchObject({ practices: ['data'], dayRate: 600 });
    const bad = await formJson('expert', '/en/expert', { practices: 'data', bio: '', dayRate: '-5', availability: 'busy' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.form.error.fields).sort()).toEqual(['busyUntil', 'dayRate']);
    const page1 = await page('expert', '/expert');
    expect(page1.text).toContain('Forecasts.');
  });
});

describe('dashboards', () => {
  test('each area shows what waits for the user first, then their projects; unread messages in the navbar', async () => {
    const fresh = await createTestApp(UNLIMITED);
    const t = await signInEveryone(fresh.app, fresh.db);
    const id = await activeProject(fresh.app, t);
    await api(fresh.app, t.expert).post(`/projects/${id}/messages`, { body: 'Hi' });
    const cookie = await (async () => {
      const res = await request(fresh.app)
        .post('/login')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ identifier: 'acme', password: DEFAULT_PASSWORD });
      return ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('auth._token.local='))!
        .split(';')[0]!;
    })();
    const dashboard = await request(fresh.app).get('/client').set('Cookie', cookie);
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain('Pendiente de ti');
    expect(dashboard.text).toContain('Mensajes nuevos');
    expect(dashboard.text).toMatch(/class="navbar-unread"><span aria-hidden="true">1<\/span>/);
    await request(fresh.app).get(`/client/projects/${id}`).set('Cookie', cookie);
    const after = await request(fresh.app).get('/client').set('Cookie', cookie);
    expect(after.text).not.toContain('navbar-unread');
    const filtered = await request(fresh.app).get('/client?status=closed').set('Cookie', cookie);
    expect(filtered.text).toContain('Ningún proyecto coincide con estos filtros.');
  });

  test(`the navbar's badge counts unread messages up to ${UNREAD_BADGE_MAX}: past 99 it shows 99+ and says "more than 99"`, async () => {
    const fresh = await createTestApp(UNLIMITED);
    const t = await signInEveryone(fresh.app, fresh.db);
    const id = await activeProject(fresh.app, t);
    const at = new Date().toISOString();
    await fresh.db.k
      .insertInto('project_messages')
      .values(
        Array.from({ length: UNREAD_BADGE_MAX + 50 }, (_, i) => ({
          project_id: id,
          author: PEOPLE.expert.userName,
          author_name: 'Eva',
          author_role: 'CONS',
          body: `m${i}`,
          created_at: at,
        })),
      )
      .execute();
    const res = await request(fresh.app)
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: 'acme', password: DEFAULT_PASSWORD });
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('auth._token.local='))!
      .split(';')[0]!;
    const dashboard = await request(fresh.app).get('/client').set('Cookie', cookie);
    expect(dashboard.text).toMatch(/class="navbar-unread"><span aria-hidden="true">99\+<\/span>/);
    expect(dashboard.text).toContain('Más de 99 mensajes sin leer');
    const owner = await findUser(fresh.db, 'acme');
    expect(await createProjects({ db: fresh.db, notify: async () => {} }).unreadTotal(owner!)).toBe(UNREAD_BADGE_MAX);
  });

  test('an empty area says so honestly and offers the first brief', async () => {
    const fresh = await createTestApp(UNLIMITED);
    await signInEveryone(fresh.app, fresh.db);
    const res = await request(fresh.app)
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: 'cityhall', password: DEFAULT_PASSWORD });
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('auth._token.local='))!
      .split(';')[0]!;
    const shown = await request(fresh.app).get('/en/organization').set('Cookie', cookie);
    expect(shown.text).toContain('You have no projects yet.');
    expect(shown.text).toContain('href="/en/organization/projects/new"');
    expect(shown.text).not.toMatch(/Reporting|Request a proposal/);
  });
});

describe('who sees a project page', () => {
  let id: number;
  let documentId: number;
  beforeAll(async () => {
    id = await activeProject(app, tokens);
    documentId = (await api(app, tokens.owner).upload(`/projects/${id}/documents`, PDF, 'plan.pdf')).body.id as number;
  });
  const PAGE_OF: Record<Person, string> = {
    admin: 'admin',
    owner: 'client',
    otherClient: 'client',
    org: 'organization',
    expert: 'expert',
    otherExpert: 'expert',
  };
  test.each([
    ['admin', 200],
    ['owner', 200],
    ['expert', 200],
    ['otherClient', 404],
    ['org', 404],
    ['otherExpert', 404],
  ] as const)('%s: the page, its data and the document download → %i', async (who, status) => {
    const path = `/${PAGE_OF[who]}/projects/${id}`;
    const html = await page(who, path);
    expect(html.status).toBe(status);
    const data = await page(who, `/_data?path=${encodeURIComponent(path)}`);
    expect(data.status).toBe(200);
    expect(data.body.payload.status).toBe(status);
    if (status === 404) {
      expect(JSON.stringify(data.body)).not.toContain('Data platform');
      expect(html.text).not.toContain('Data platform');
    }
    const file = await page(who, `/project-files/${id}/${documentId}`);
    expect(file.status).toBe(status);
    if (status === 200) {
      expect(file.headers['content-disposition']).toBe(`attachment; filename="plan.pdf"; filename*=UTF-8''plan.pdf`);
      expect(file.headers['cache-control']).toBe('private, no-store, no-transform');
    }
  });

  test("an outsider's 404 is the same as for a project that does not exist, and posting to it changes nothing", async () => {
    const hidden = await page('otherClient', `/client/projects/${id}`);
    const missing = await page('otherClient', `/client/projects/${id + 9999}`);
    expect(hidden.status).toBe(404);
    const main = (html: string, shown: number) => /<main[^]*<\/main>/.exec(html)![0].replaceAll(String(shown), 'ID');
    expect(main(hidden.text, id)).toBe(main(missing.text, id + 9999));
    const post = await form('otherClient', `/client/projects/${id}`, { intent: 'message', body: 'hello?' });
    expect(post.status).toBe(404);
    expect((await api(app, tokens.owner).get(`/projects/${id}/messages`)).body.total).toBe(0);
  });

  test.each(['abc', '0', '99999999999', '1e3'])('a project id that is not a number of the table is the 404 page: %s', async (bad) => {
    expect((await page('admin', `/admin/projects/${bad}`)).status).toBe(404);
    expect((await page('admin', `/project-files/${bad}/1`)).status).toBe(404);
  });

  test('signed out, a project page sends to login and a download is a 404', async () => {
    const res = await request(app).get(`/en/client/projects/${id}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/en/login');
    expect((await request(app).get(`/project-files/${id}/${documentId}`)).status).toBe(404);
  });

  test("a role is kept to its own area: a client on an expert's project URL goes to /client", async () => {
    const res = await page('owner', `/expert/projects/${id}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/client');
  });
});

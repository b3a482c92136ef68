// The projects API (docs/specification.md §17, docs/openapi.json): the life of a project from brief to
// closed, who may move it, the conversation and the documents, and the edge's answers to bad
// input. The access table (who sees a project at all) is in access.test.ts.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Express } from 'express';
import request from 'supertest';
import { createTestApp } from '../helpers/app.ts';
import { signIn } from '../my-account/helpers.ts';
import { activeProject, api, BRIEF, DOCX, PDF, PEOPLE, PNG_BYTES, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';

let app: Express;
let tokens: Record<Person, string>;
beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  tokens = await signInEveryone(app, created.db);
});

describe('a project from brief to closed', () => {
  test('a client submits a brief, the admin proposes, the client accepts, an expert delivers, the client closes', async () => {
    const owner = api(app, tokens.owner);
    const admin = api(app, tokens.admin);
    const expert = api(app, tokens.expert);
    const created = await owner.post('/projects', { ...BRIEF, budget: '10to50k', wishedStart: '2027-01-11', deadline: '2027-03-31' });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/api/projects/${created.body.id}`);
    expect(created.body).toMatchObject({ state: 'brief', practice: 'data', budget: '10to50k', standing: 'manager', actions: ['withdraw'] });
    const id = created.body.id as number;

    const proposal = { scope: 'Dashboards', fee: 18000, timeline: 'Eight weeks' };
    const proposed = await admin.patch(`/projects/${id}`, { action: 'send_proposal', proposal });
    expect(proposed.status).toBe(200);
    expect(proposed.body.state).toBe('proposal');
    expect(proposed.body.proposal).toMatchObject({ ...proposal, sentBy: 'staff', answeredAt: null });

    const seen = await owner.get(`/projects/${id}`);
    expect(seen.body.waiting).toBe('answer_proposal');
    expect(seen.body.actions).toEqual(['accept', 'decline']);
    const accepted = await owner.patch(`/projects/${id}`, { action: 'accept', version: 1 });
    expect(accepted.body.state).toBe('active');
    expect(accepted.body.proposal.answeredAt).not.toBeNull();

    const assigned = await admin.post(`/projects/${id}/experts`, { userName: 'EVA' });
    expect(assigned.status).toBe(200);
    expect(assigned.body.experts).toEqual([{ userName: 'eva', name: 'Eva Expert', role: 'CONS' }]);

    const withMilestone = await expert.post(`/projects/${id}/milestones`, { title: 'Data model agreed', dueDate: '2027-01-31' });
    expect(withMilestone.status).toBe(201);
    const milestoneId = withMilestone.body.milestones[0].id as number;
    const ticked = await expert.patch(`/projects/${id}/milestones/${milestoneId}`, { done: true });
    expect(ticked.body.milestones[0]).toMatchObject({ title: 'Data model agreed', doneBy: 'eva' });

    expect((await expert.patch(`/projects/${id}`, { action: 'deliver' })).body.state).toBe('delivered');
    expect((await owner.get(`/projects/${id}`)).body.waiting).toBe('confirm_delivery');
    const closed = await owner.patch(`/projects/${id}`, { action: 'close' });
    expect(closed.body.state).toBe('closed');
    expect(closed.body.writable).toBe(false);
    expect(closed.body).not.toHaveProperty('events');
    const history = await owner.get(`/projects/${id}/events`);
    expect(history.body).toMatchObject({ total: 8, pageSize: 50, before: null, nextBefore: null });
    expect(history.body.items.map((e: { kind: string; to: string | null }) => `${e.kind}:${e.to ?? ''}`)).toEqual([
      'state:closed',
      'state:delivered',
      'milestone_done:',
      'milestone_added:',
      'expert_added:',
      'state:active',
      'proposal:proposal',
      'created:brief',
    ]);
  });

  test('a declined proposal can be sent again; the owner may withdraw a brief, an admin cancel an open project', async () => {
    const owner = api(app, tokens.owner);
    const admin = api(app, tokens.admin);
    const id = (await owner.post('/projects', BRIEF)).body.id as number;
    const proposal = { scope: 'A', fee: 1000, timeline: 'B' };
    await admin.patch(`/projects/${id}`, { action: 'send_proposal', proposal });
    expect((await owner.patch(`/projects/${id}`, { action: 'decline', version: 1 })).body.state).toBe('declined');
    expect((await admin.get(`/projects/${id}`)).body.waiting).toBe('revise_proposal');
    const again = await admin.patch(`/projects/${id}`, { action: 'send_proposal', proposal: { ...proposal, fee: 800 } });
    expect(again.body).toMatchObject({ state: 'proposal', proposal: { fee: 800, answeredAt: null } });
    expect((await admin.patch(`/projects/${id}`, { action: 'cancel' })).body.state).toBe('cancelled');

    const other = (await owner.post('/projects', BRIEF)).body.id as number;
    expect((await owner.patch(`/projects/${other}`, { action: 'withdraw' })).body.state).toBe('cancelled');
  });

  test.each([
    ['owner', 'deliver', 403],
    ['owner', 'send_proposal', 403],
    ['expert', 'close', 403],
    ['expert', 'accept', 403],
    ['admin', 'accept', 403],
    ['owner', 'withdraw', 409],
    ['admin', 'close', 409],
  ] as const)(
    'only the right participant moves a project, from the right state: %s may not %s an active project (%i)',
    async (who, action, status) => {
      const id = await activeProject(app, tokens);
      const res = await api(app, tokens[who]).patch(`/projects/${id}`, { action });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(status === 403 ? 'forbidden' : 'invalid_transition');
      expect((await api(app, tokens.admin).get(`/projects/${id}`)).body.state).toBe('active');
    },
  );

  test('two answers to one proposal at once: one wins, the other is told the project changed', async () => {
    const owner = api(app, tokens.owner);
    const id = (await owner.post('/projects', BRIEF)).body.id as number;
    await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: { scope: 'A', fee: 1, timeline: 'B' } });
    const [a, b] = await Promise.all([
      owner.patch(`/projects/${id}`, { action: 'accept', version: 1 }),
      owner.patch(`/projects/${id}`, { action: 'decline', version: 1 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const events = (await owner.get(`/projects/${id}/events`)).body.items.filter((e: { kind: string }) => e.kind === 'state');
    expect(events).toHaveLength(1);
  });

  test('only clients and organisations submit briefs; an organisation keeps its procurement reference, a client does not', async () => {
    for (const who of ['admin', 'expert'] as const) {
      const res = await api(app, tokens[who]).post('/projects', BRIEF);
      expect(res.status).toBe(403);
    }
    const org = await api(app, tokens.org).post('/projects', { ...BRIEF, procurementRef: 'EXP-2026/114' });
    expect(org.body.procurementRef).toBe('EXP-2026/114');
    const cli = await api(app, tokens.owner).post('/projects', { ...BRIEF, procurementRef: 'EXP-1' });
    expect(cli.body.procurementRef).toBeNull();
  });

  test('an admin assigns only experts: an unknown user or another role is refused with the field named', async () => {
    const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
    for (const userName of ['nobody', 'globex', 'staff']) {
      const res = await api(app, tokens.admin).post(`/projects/${id}/experts`, { userName });
      expect(res.status).toBe(422);
      expect(res.body.error.fields).toEqual({ userName: 'validation.unknownExpert' });
    }
    // Assigning twice is one assignment.
    await api(app, tokens.admin).post(`/projects/${id}/experts`, { userName: 'eva' });
    const twice = await api(app, tokens.admin).post(`/projects/${id}/experts`, { userName: 'eva' });
    expect(twice.body.experts).toHaveLength(1);
    const history = await api(app, tokens.admin).get(`/projects/${id}/events`);
    expect(history.body.items.filter((e: { kind: string }) => e.kind === 'expert_added')).toHaveLength(1);
    const removed = await api(app, tokens.admin).delete(`/projects/${id}/experts/eva`);
    expect(removed.body.experts).toEqual([]);
  });
});

describe('what the API refuses', () => {
  test.each([
    [{}, ['title', 'description', 'practice']],
    [{ ...BRIEF, practice: 'astrology' }, ['practice']],
    [{ ...BRIEF, title: 'x'.repeat(201) }, ['title']],
    [{ ...BRIEF, deadline: '2027-02-30' }, ['deadline']],
    [{ ...BRIEF, wishedStart: '2027-05-01', deadline: '2027-04-01' }, ['deadline']],
    [{ ...BRIEF, budget: 'a lot' }, ['budget']],
    [{ ...BRIEF, owner: 'someone-else' }, ['owner']],
  ])('a bad brief is a 400 that names each bad field: %j', async (body, fields) => {
    const res = await api(app, tokens.owner).post('/projects', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(Object.keys(res.body.error.fields).sort()).toEqual([...fields].sort());
  });

  test('a proposal needs scope, a whole non-negative fee and a timeline', async () => {
    const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
    const admin = api(app, tokens.admin);
    expect((await admin.patch(`/projects/${id}`, { action: 'send_proposal' })).status).toBe(400);
    const bad = await admin.patch(`/projects/${id}`, { action: 'send_proposal', proposal: { scope: '', fee: -1, timeline: 'x' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['proposal.fee', 'proposal.scope']);
    expect((await admin.patch(`/projects/${id}`, { action: 'fly' })).status).toBe(400);
    expect((await admin.get(`/projects/${id}`)).body.state).toBe('brief');
  });

  test('a body that is not JSON or too large is refused, nothing stored', async () => {
    const before = (await api(app, tokens.owner).get('/projects')).body.total as number;
    const broken = await api(app, tokens.owner).post('/projects').set('Content-Type', 'application/json').send('{"title": ');
    expect(broken.status).toBe(400);
    const huge = await api(app, tokens.owner).post('/projects', { ...BRIEF, description: 'x'.repeat(40_000) });
    expect(huge.status).toBe(413);
    expect((await api(app, tokens.owner).get('/projects')).body.total).toBe(before);
  });

  test.each(['0', '-1', 'abc', '1e3', '99999999999', '12345'])("a project id that is not one of the caller's is a 404: %s", async (id) => {
    const res = await api(app, tokens.admin).get(`/projects/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('without a token every project route is a 401', async () => {
    for (const path of ['/api/projects', '/api/projects/1', '/api/projects/1/messages', '/api/me/expertise', '/api/experts']) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(401);
    }
  });
});

describe('the conversation and the documents', () => {
  test('messages reach every participant; unread counts fall when the thread is read', async () => {
    const id = await activeProject(app, tokens);
    const posted = await api(app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Hello, I will lead the data model.' });
    expect(posted.status).toBe(201);
    expect(posted.body.author).toEqual({ userName: 'eva', name: 'Eva Expert', role: 'CONS' });
    const ownerView = await api(app, tokens.owner).get(`/projects/${id}`);
    expect(ownerView.body.unread).toBe(1);
    expect((await api(app, tokens.expert).get(`/projects/${id}`)).body.unread).toBe(0);
    const thread = await api(app, tokens.owner).get(`/projects/${id}/messages`);
    expect(thread.body.items.map((m: { body: string }) => m.body)).toEqual(['Hello, I will lead the data model.']);
    expect((await api(app, tokens.owner).get(`/projects/${id}`)).body.unread).toBe(0);
    const waiting = await api(app, tokens.admin).get('/projects?waiting=true');
    expect(waiting.status).toBe(200);
  });

  test('messages are paged newest first, older ones by before=<id>, and a closed project takes none', async () => {
    const id = await activeProject(app, tokens);
    const expert = api(app, tokens.expert);
    for (let i = 1; i <= 5; i++) await expert.post(`/projects/${id}/messages`, { body: `message ${i}` });
    const page1 = await api(app, tokens.owner).get(`/projects/${id}/messages?pageSize=2`);
    expect(page1.body).toMatchObject({ total: 5, pageSize: 2, before: null });
    expect(page1.body.items.map((m: { body: string }) => m.body)).toEqual(['message 5', 'message 4']);
    expect(page1.body.nextBefore).toBe(page1.body.items[1].id);
    const page2 = await api(app, tokens.owner).get(`/projects/${id}/messages?pageSize=2&before=${page1.body.nextBefore}`);
    expect(page2.body.items.map((m: { body: string }) => m.body)).toEqual(['message 3', 'message 2']);
    const page3 = await api(app, tokens.owner).get(`/projects/${id}/messages?pageSize=2&before=${page2.body.nextBefore}`);
    expect(page3.body.items.map((m: { body: string }) => m.body)).toEqual(['message 1']);
    expect(page3.body.nextBefore).toBeNull();
    await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'cancel' });
    const refused = await expert.post(`/projects/${id}/messages`, { body: 'late' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('read_only');
    const upload = await api(app, tokens.owner).upload(`/projects/${id}/documents`, PDF, 'late.pdf');
    expect(upload.status).toBe(409);
  });

  test('a document is stored once checked by its bytes and downloaded as an attachment, never cached', async () => {
    const id = await activeProject(app, tokens);
    const up = await api(app, tokens.owner).upload(`/projects/${id}/documents`, PDF, '../../etc/Informe final?.pdf');
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ name: 'Informe final.pdf', contentType: 'application/pdf', bytes: PDF.length, uploadedBy: 'acme' });
    const down = await api(app, tokens.expert)
      .get(`/projects/${id}/documents/${up.body.id}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(down.status).toBe(200);
    expect(Buffer.compare(down.body as Buffer, PDF)).toBe(0);
    expect(down.headers['content-type']).toBe('application/pdf');
    expect(down.headers['content-disposition']).toBe(`attachment; filename="Informe final.pdf"; filename*=UTF-8''Informe%20final.pdf`);
    expect(down.headers['cache-control']).toBe('private, no-store, no-transform');
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    const docx = await api(app, tokens.expert).upload(`/projects/${id}/documents`, DOCX, 'plan.docx');
    expect(docx.body.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const png = await api(app, tokens.admin).upload(`/projects/${id}/documents`, PNG_BYTES, 'photo.png');
    expect(png.body.contentType).toBe('image/png');
    const list = await api(app, tokens.owner).get(`/projects/${id}/documents`);
    expect(list.body).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(list.body.items.map((d: { name: string }) => d.name)).toEqual(['photo.png', 'plan.docx', 'Informe final.pdf']);
  });

  test('a document of several stored chunks comes back byte for byte, from the API and from the page route alike', async () => {
    const id = await activeProject(app, tokens);
    // Two chunks of 256 KiB and a bit: the last one short.
    const big = Buffer.concat([PDF, Buffer.from(Array.from({ length: 2 * 256 * 1024 + 999 }, (_, i) => (i * 7) % 256))]);
    const up = await api(app, tokens.owner).upload(`/projects/${id}/documents`, big, 'big.pdf');
    expect(up.status).toBe(201);
    const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
      const stream = res as unknown as NodeJS.ReadableStream;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
    };
    const viaApi = await api(app, tokens.expert).get(`/projects/${id}/documents/${up.body.id}`).buffer(true).parse(binary);
    expect(viaApi.status).toBe(200);
    expect(viaApi.headers['content-length']).toBe(String(big.length));
    expect(Buffer.compare(viaApi.body as Buffer, big)).toBe(0);
    const cookie = await signIn(app, PEOPLE.expert.userName);
    const viaPage = await request(app).get(`/project-files/${id}/${up.body.id}`).set('Cookie', cookie).buffer(true).parse(binary);
    expect(viaPage.status).toBe(200);
    expect(Buffer.compare(viaPage.body as Buffer, big)).toBe(0);
    // Never through the global compression: the bytes as stored.
    expect(viaPage.headers['content-encoding']).toBeUndefined();
  });

  test.each([
    ['a script named .pdf', Buffer.from('<script>alert(1)</script>'), 'x.pdf', 415],
    ['a ZIP named .exe', DOCX, 'x.exe', 415],
    ['an empty file', Buffer.alloc(0), 'x.pdf', 422],
  ])('a document that is not what it claims is refused: %s', async (_label, bytes, name, status) => {
    const id = await activeProject(app, tokens);
    const res = await api(app, tokens.owner).upload(`/projects/${id}/documents`, bytes, name);
    expect(res.status).toBe(status);
    expect((await api(app, tokens.owner).get(`/projects/${id}/documents`)).body.items).toEqual([]);
  });

  test('a document over 10 MB is refused with 413 and not stored; a body without the file field is a 400', async () => {
    const id = await activeProject(app, tokens);
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await api(app, tokens.owner).upload(`/projects/${id}/documents`, big, 'big.pdf');
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('file_too_large');
    const none = await api(app, tokens.owner).field(`/projects/${id}/documents`, 'other', 'x');
    expect(none.status).toBe(400);
    const json = await api(app, tokens.owner).post(`/projects/${id}/documents`, { file: 'x' });
    expect(json.status).toBe(415);
    expect((await api(app, tokens.owner).get(`/projects/${id}/documents`)).body.items).toEqual([]);
  });
});

describe('lists and expert profiles', () => {
  test('each sees their own projects; admins see all, filtered by state and text, paged', async () => {
    const fresh = await createTestApp(UNLIMITED);
    const t = await signInEveryone(fresh.app, fresh.db);
    const mine = await api(fresh.app, t.owner).post('/projects', { ...BRIEF, title: 'Alpha carbon audit', practice: 'sustainability' });
    await api(fresh.app, t.org).post('/projects', { ...BRIEF, title: 'Beta open data portal' });
    const id = await activeProject(fresh.app, t);
    expect((await api(fresh.app, t.owner).get('/projects')).body.total).toBe(2);
    expect((await api(fresh.app, t.otherClient).get('/projects')).body).toMatchObject({ total: 0, items: [] });
    const expertList = await api(fresh.app, t.expert).get('/projects');
    expect(expertList.body.items.map((p: { id: number }) => p.id)).toEqual([id]);
    const all = await api(fresh.app, t.admin).get('/projects');
    expect(all.body.total).toBe(3);
    expect(all.body.items[0].id).toBe(id); // newest first
    expect((await api(fresh.app, t.admin).get('/projects?status=brief')).body.total).toBe(2);
    const found = await api(fresh.app, t.admin).get('/projects?q=CARBON');
    expect(found.body.items.map((p: { id: number }) => p.id)).toEqual([mine.body.id]);
    expect((await api(fresh.app, t.admin).get('/projects?q=100%25')).body.total).toBe(0);
    const paged = await api(fresh.app, t.admin).get('/projects?pageSize=2&page=2');
    expect(paged.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.body.items).toHaveLength(1);
    expect((await api(fresh.app, t.admin).get('/projects?status=flying')).status).toBe(400);
    expect((await api(fresh.app, t.admin).get('/projects?pageSize=1000')).status).toBe(400);
  });

  test('an expert keeps a profile of expertise; admins filter experts by practice and availability', async () => {
    const expert = api(app, tokens.expert);
    expect((await expert.get('/me/expertise')).body).toMatchObject({
      userName: 'eva',
      practices: [],
      availability: 'available',
      updatedAt: null,
    });
    const saved = await expert.put('/me/expertise', {
      practices: ['data', 'digital'],
      bio: 'Ten years of BI.',
      dayRate: 650,
      availability: 'available',
      busyUntil: null,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ practices: ['digital', 'data'], dayRate: 650 });
    const busy = await expert.put('/me/expertise', { practices: ['data'], bio: '', dayRate: null, availability: 'busy' });
    expect(busy.status).toBe(400);
    expect(busy.body.error.fields).toEqual({ busyUntil: 'validation.busyUntil' });
    expect((await api(app, tokens.owner).get('/me/expertise')).status).toBe(403);
    expect((await api(app, tokens.owner).get('/experts')).status).toBe(403);
    const data = await api(app, tokens.admin).get('/experts?practice=data');
    expect(data.body.items.map((e: { userName: string }) => e.userName)).toEqual(['eva']);
    const all = await api(app, tokens.admin).get('/experts');
    expect(all.body.items.map((e: { userName: string }) => e.userName)).toEqual(['eva', 'otto']);
    expect(PEOPLE.expert.userName).toBe('eva');
  });
});

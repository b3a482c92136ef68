// The notification centre and the live stream (docs/decisions/042): every notice of a project is a
// notification of each recipient (never of the one who acted); a page at a time, marked read one
// by one, all at once or by opening the project; a held milestone notice withdrawn with its
// e-mail; the bell's count in every signed-in page. The live stream (GET /live) of a signed-in
// tab hears of them on any instance, replays what a reconnection missed (Last-Event-ID), is
// capped per user and per process, and ends on sign-out and on shutdown. Both engines.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { eraseAccount } from '../../server/my-account/erase.ts';
import { ORIGIN, TEST_ENGINE, createTestApp, reopenableTestDatabase, testDatabase } from '../helpers/app.ts';
import { openStream, type SseStream } from '../helpers/sse.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { postProfile, signIn } from '../my-account/helpers.ts';
import { api, BRIEF, PEOPLE, UNLIMITED } from '../projects/fixtures.ts';

type App = Awaited<ReturnType<typeof createTestApp>>;

const servers: Server[] = [];
const streams: SseStream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** The app on a real port (the live stream needs a socket): its base URL. */
async function listen(app: App): Promise<string> {
  const server = createServer(app.app);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stream(base: string, cookie: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const opened = await openStream(`${base}/live`, { Cookie: cookie, ...headers });
  streams.push(opened);
  return opened;
}

/** A site with the admin, the client "acme" (a project) and the expert "eva" assigned to it. */
async function site(env: Record<string, string> = {}, db?: Db) {
  const app = await createTestApp({ ...UNLIMITED, ...env }, { db: db ?? (await testDatabase()) });
  for (const person of [PEOPLE.admin, PEOPLE.owner, PEOPLE.expert, PEOPLE.otherClient]) await addUser(app.db, person);
  const tokens = {
    admin: await loginToken(app.app, PEOPLE.admin.userName),
    owner: await loginToken(app.app, PEOPLE.owner.userName),
    expert: await loginToken(app.app, PEOPLE.expert.userName),
    outsider: await loginToken(app.app, PEOPLE.otherClient.userName),
  };
  const created = await api(app.app, tokens.owner).post('/projects', BRIEF);
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  expect((await api(app.app, tokens.admin).post(`/projects/${id}/experts`, { userName: PEOPLE.expert.userName })).status).toBe(200);
  return { app, tokens, id };
}

type NotificationBody = {
  id: number;
  kind: string;
  actor: string;
  read: boolean;
  excerpt?: string;
  project: { id: number; title: string };
};

describe(`notifications (${TEST_ENGINE})`, () => {
  test('every notice is a notification of each recipient, never of the one who acted; listed newest first with the bell’s count', async () => {
    const { app, tokens, id } = await site();
    expect(
      (await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'First results are in.\n\nSee the dashboard.' })).status,
    ).toBe(201);

    const owner = await api(app.app, tokens.owner).get('/notifications');
    expect(owner.status).toBe(200);
    expect(owner.body.unread).toBe(2); // the expert's assignment, then the message
    const [newest] = owner.body.items as NotificationBody[];
    expect(newest).toMatchObject({
      kind: 'message_posted',
      actor: 'Eva Expert',
      read: false,
      excerpt: 'First results are in. See the dashboard.',
      project: { id, title: BRIEF.title },
    });
    expect(owner.body.items.map((n: NotificationBody) => n.kind)).toEqual(['message_posted', 'expert_assigned']);
    // The author hears nothing of their own message; the admin does, the outsider has nothing.
    const expert = await api(app.app, tokens.expert).get('/notifications');
    expect(expert.body.items.map((n: NotificationBody) => n.kind)).toEqual(['expert_assigned']);
    const admin = await api(app.app, tokens.admin).get('/notifications');
    expect(admin.body.items.map((n: NotificationBody) => n.kind)).toEqual(['message_posted', 'brief_submitted']);
    expect((await api(app.app, tokens.outsider).get('/notifications')).body).toMatchObject({ items: [], total: 0, unread: 0 });

    // The bell: every signed-in page carries the count.
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const data = await request(app.app).get('/_data').query({ path: '/en/profile' }).set('Cookie', cookie);
    expect(data.body.payload.notifications).toBe(2);
  });

  test('marked read one by one (only one’s own), all at once, or by opening the project’s page', async () => {
    const { app, tokens, id } = await site();
    for (const body of ['One', 'Two', 'Three']) await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body });
    const mine = (await api(app.app, tokens.owner).get('/notifications')).body.items as NotificationBody[];
    const theirs = (await api(app.app, tokens.admin).get('/notifications')).body.items as NotificationBody[];

    const one = await api(app.app, tokens.owner).post('/notifications/read', { ids: [mine[0]!.id, theirs[0]!.id] });
    expect(one.body).toEqual({ marked: 1, unread: 3 });
    expect((await api(app.app, tokens.admin).get('/notifications')).body.unread).toBe(theirs.length);

    const all = await api(app.app, tokens.owner).post('/notifications/read', { all: true });
    expect(all.body).toEqual({ marked: 3, unread: 0 });
    // Replayed: nothing more to mark, the same count.
    expect((await api(app.app, tokens.owner).post('/notifications/read', { all: true })).body).toEqual({ marked: 0, unread: 0 });
    expect((await api(app.app, tokens.owner).post('/notifications/read', { ids: [mine[0]!.id] })).body).toEqual({ marked: 0, unread: 0 });

    // The admin opens the project's page: its notifications are read.
    const adminCookie = await signIn(app.app, PEOPLE.admin.userName);
    const page = await request(app.app).get(`/en/admin/projects/${id}`).set('Cookie', adminCookie);
    expect(page.status).toBe(200);
    expect((await api(app.app, tokens.admin).get('/notifications')).body.unread).toBe(0);
  });

  test('bad requests are refused with a message that names the problem, nothing marked', async () => {
    const { app, tokens, id } = await site();
    await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Hello' });
    const cases: [object, RegExp][] = [
      [{}, /give ids .* or all: true/],
      [{ ids: [] }, /ids/],
      [{ ids: [1], all: true }, /one of them/],
      [{ ids: Array.from({ length: 101 }, (_, i) => i + 1) }, /ids/],
      [{ ids: ['1'] }, /ids/],
      [{ all: false }, /all/],
      [{ every: true }, /every|Unrecognized/i],
    ];
    for (const [body, message] of cases) {
      const refused = await api(app.app, tokens.owner).post('/notifications/read', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    for (const query of ['?page=2', '?before=0', '?pageSize=101', '?before=99999999999']) {
      expect((await api(app.app, tokens.owner).get(`/notifications${query}`)).status, query).toBe(400);
    }
    expect((await request(app.app).get('/api/notifications')).status).toBe(401);
    expect((await api(app.app, tokens.owner).get('/notifications')).body.unread).toBe(2);
  });

  test('a page at a time: 25 notifications are 20, then 5 older ones', async () => {
    const { app, tokens, id } = await site();
    for (let i = 1; i <= 24; i++) await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: `Message ${i}` });
    const first = await api(app.app, tokens.owner).get('/notifications');
    expect(first.body).toMatchObject({ total: 25, pageSize: 20, before: null });
    expect(first.body.items).toHaveLength(20);
    expect(first.body.items[0].excerpt).toBe('Message 24');
    const second = await api(app.app, tokens.owner).get(`/notifications?before=${first.body.nextBefore}`);
    expect(second.body.items).toHaveLength(5);
    expect(second.body.nextBefore).toBeNull();
    expect(second.body.items.at(-1).kind).toBe('expert_assigned');
  });

  test('a notification says who was assigned and which version of the proposal was sent, in the API and on the page', async () => {
    const { app, tokens, id } = await site();
    const proposal = { scope: 'Scope', fee: 1000, timeline: 'Soon' };
    expect((await api(app.app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal })).status).toBe(200);
    const items = (await api(app.app, tokens.owner).get('/notifications')).body.items as (NotificationBody & {
      expert?: string;
      version?: number;
    })[];
    expect(items.find((n) => n.kind === 'proposal_sent')).toMatchObject({ version: 1 });
    expect(items.find((n) => n.kind === 'expert_assigned')).toMatchObject({ expert: 'Eva Expert' });
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const es = await request(app.app).get('/notifications').set('Cookie', cookie);
    expect(es.text).toContain(`ha asignado a Eva Expert a «${BRIEF.title}»`);
    expect(es.text).toContain(`ha enviado la versión 1 de la propuesta para «${BRIEF.title}»`);
    const en = await request(app.app).get('/en/notifications').set('Cookie', cookie);
    expect(en.text).toContain(`assigned Eva Expert to “${BRIEF.title}”`);
    expect(en.text).toContain(`sent version 1 of the proposal for “${BRIEF.title}”`);
  });

  test('a milestone done and undone within the collapse window leaves no notification, like its e-mail', async () => {
    const { app, tokens, id } = await site();
    expect(
      (
        await api(app.app, tokens.admin).patch(`/projects/${id}`, {
          action: 'send_proposal',
          proposal: { scope: 'Scope', fee: 1000, timeline: 'Soon' },
        })
      ).status,
    ).toBe(200);
    expect((await api(app.app, tokens.owner).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
    const added = await api(app.app, tokens.admin).post(`/projects/${id}/milestones`, { title: 'Kick-off' });
    const milestone = (added.body.milestones as { id: number }[])[0]!.id;
    const before = (await api(app.app, tokens.owner).get('/notifications')).body.total as number;
    await api(app.app, tokens.expert).patch(`/projects/${id}/milestones/${milestone}`, { done: true });
    expect((await api(app.app, tokens.owner).get('/notifications')).body.items[0].kind).toBe('milestone_done');
    await api(app.app, tokens.expert).patch(`/projects/${id}/milestones/${milestone}`, { done: false });
    const after = await api(app.app, tokens.owner).get('/notifications');
    expect(after.body.total).toBe(before);
    expect(after.body.items.map((n: NotificationBody) => n.kind)).not.toContain('milestone_done');
  });

  test('the page without JavaScript: the list, "mark all as read" and "mark as read" as plain forms', async () => {
    const { app, tokens, id } = await site();
    await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Hola' });
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const page = await request(app.app).get('/notifications').set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Eva Expert ha escrito en «Data platform for the sales team»');
    expect(page.text).toContain(`href="/client/projects/${id}"`);
    expect(page.text).toContain('Tienes 2 notificaciones sin leer.');
    const first = (await api(app.app, tokens.owner).get('/notifications')).body.items[0] as NotificationBody;

    const one = await request(app.app)
      .post('/notifications')
      .set('Origin', ORIGIN)
      .set('Cookie', cookie)
      .type('form')
      .send({ intent: 'read', id: String(first.id) });
    expect(one.status).toBe(303);
    expect(one.headers.location).toBe('/notifications?done=read');
    expect((await api(app.app, tokens.owner).get('/notifications')).body.unread).toBe(1);
    const all = await request(app.app)
      .post('/en/notifications')
      .set('Origin', ORIGIN)
      .set('Cookie', cookie)
      .type('form')
      .send({ intent: 'readAll' });
    expect(all.headers.location).toBe('/en/notifications?done=readAll');
    const shown = await request(app.app).get('/en/notifications?done=readAll').set('Cookie', cookie);
    expect(shown.text).toContain('All your notifications are marked as read.');
    expect(shown.text).not.toContain('notification-unread');
    // A form that says nothing sensible is refused, nothing marked.
    const bad = await request(app.app)
      .post('/en/notifications')
      .set('Origin', ORIGIN)
      .set('Cookie', cookie)
      .type('form')
      .send({ intent: 'read', id: 'x' });
    expect(bad.status).toBe(400);
    // Signed out: the login page, as for every private page.
    expect((await request(app.app).get('/en/notifications')).status).toBe(302);
  });

  test('an account deleted: its own notifications go, and the others’ stop naming it', async () => {
    const { app, tokens, id } = await site();
    await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Before I go' });
    await app.db.k.transaction().execute((trx) => eraseAccount(trx, { userName: PEOPLE.expert.userName }));
    const owner = (await api(app.app, tokens.owner).get('/notifications')).body.items as NotificationBody[];
    expect(owner[0]).toMatchObject({ kind: 'message_posted', actor: '' });
    const theirs = await app.db.k.selectFrom('notifications').selectAll().where('user_name', '=', PEOPLE.expert.userName).execute();
    expect(theirs).toEqual([]);
    expect(JSON.stringify(await app.db.k.selectFrom('notifications').selectAll().execute())).not.toMatch(/eva/i);
  });

  test('notifications older than NOTIFICATIONS_KEEP_DAYS are deleted', async () => {
    const { app, tokens, id } = await site();
    await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Old news' });
    await app.db.k
      .updateTable('notifications')
      .set({ created_at: '2020-01-01T00:00:00.000Z' })
      .where('kind', '=', 'message_posted')
      .execute();
    expect(await app.notifications.prune(180)).toBe(2); // the owner's and the admin's
    expect((await api(app.app, tokens.owner).get('/notifications')).body.items.map((n: NotificationBody) => n.kind)).toEqual([
      'expert_assigned',
    ]);
  });
});

describe(`the live stream (${TEST_ENGINE})`, () => {
  test('GET /live: an event stream, private and never stored; 401 signed out', async () => {
    const { app } = await site();
    const base = await listen(app);
    const signedOut = await openStream(`${base}/live`);
    streams.push(signedOut);
    expect(signedOut.status).toBe(401);
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const live = await stream(base, cookie);
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(live.headers['cache-control']).toBe('private, no-store, no-transform');
    expect(live.headers['content-encoding']).toBeUndefined();
    const first = await live.next('unread');
    expect(JSON.parse(first.data)).toEqual({ unread: 1 });
  });

  test('a message reaches the other participants’ streams (a notification with its id, the project changed), the author’s other tabs too', async () => {
    const { app, tokens, id } = await site();
    const base = await listen(app);
    const owner = await stream(base, await signIn(app.app, PEOPLE.owner.userName));
    const expertTab = await stream(base, await signIn(app.app, PEOPLE.expert.userName));
    const outsider = await stream(base, await signIn(app.app, PEOPLE.otherClient.userName));
    await Promise.all([owner.next('unread'), expertTab.next('unread'), outsider.next('unread')]);

    await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Live!' });
    const notification = await owner.next('notification');
    const data = JSON.parse(notification.data);
    expect(data).toMatchObject({ kind: 'message_posted', projectId: id, unread: 2 });
    expect(notification.id).toBe(String(data.id));
    expect(JSON.parse((await owner.next('project')).data)).toEqual({ id });
    // The author's own tab reads the project again, with no notification of its own.
    expect(JSON.parse((await expertTab.next('project')).data)).toEqual({ id });
    expect(expertTab.events.filter((e) => e.event === 'notification')).toEqual([]);
    // Someone who does not see the project hears nothing of it.
    await new Promise((done) => setTimeout(done, 300));
    expect(outsider.events.map((e) => e.event)).toEqual(['unread']);

    // Read elsewhere: the count follows.
    await api(app.app, tokens.owner).post('/notifications/read', { all: true });
    await expect
      .poll(() =>
        owner.events
          .filter((e) => e.event === 'unread')
          .map((e) => JSON.parse(e.data).unread)
          .at(-1),
      )
      .toBe(0);
  });

  test('a reconnection with Last-Event-ID gets the notifications it missed, in order', async () => {
    const { app, tokens, id } = await site();
    const base = await listen(app);
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const last = (await api(app.app, tokens.owner).get('/notifications')).body.items[0].id as number;
    for (const body of ['Missed 1', 'Missed 2']) await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body });
    const back = await stream(base, cookie, { 'Last-Event-ID': String(last) });
    const first = await back.next('notification');
    const second = await back.next('notification');
    expect(Number(first.id)).toBeGreaterThan(last);
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(back.events.filter((e) => e.event === 'notification')).toHaveLength(2);
    expect(JSON.parse((await back.next('unread')).data)).toEqual({ unread: 3 });
  });

  test('a Last-Event-ID that is not a notification id of one’s own replays nothing of anyone else’s', async () => {
    const { app, tokens, id } = await site();
    const base = await listen(app);
    await api(app.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'For the participants only' });
    const cookie = await signIn(app.app, PEOPLE.otherClient.userName);
    for (const lastEventId of ['0', '-5', 'abc', '1e309', '99999999999999999999', '1']) {
      const tab = await stream(base, cookie, { 'Last-Event-ID': lastEventId });
      expect(tab.status, lastEventId).toBe(200);
      expect(JSON.parse((await tab.next('unread')).data), lastEventId).toEqual({ unread: 0 });
      expect(
        tab.events.filter((e) => e.event === 'notification'),
        lastEventId,
      ).toEqual([]);
      tab.close();
    }
  });

  test('capped per user and per process (429 with Retry-After); a closed tab frees its place', async () => {
    const { app } = await site({ LIVE_STREAMS_PER_USER: '2', LIVE_STREAMS_MAX: '3' });
    const base = await listen(app);
    const owner = await signIn(app.app, PEOPLE.owner.userName);
    const admin = await signIn(app.app, PEOPLE.admin.userName);
    const a = await stream(base, owner);
    await stream(base, owner);
    const third = await stream(base, owner);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('60');
    await stream(base, admin);
    const overProcess = await stream(base, admin);
    expect(overProcess.status).toBe(429);
    a.close();
    await expect.poll(() => app.liveStreams.open()).toBe(2);
    expect((await stream(base, admin)).status).toBe(200);
  });

  test('signing out ends the stream for good (an "end" event); so does a session ended from another device', async () => {
    const { app } = await site();
    const base = await listen(app);
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const other = await signIn(app.app, PEOPLE.owner.userName);
    const tab = await stream(base, cookie);
    const otherTab = await stream(base, other);
    await tab.next('unread');
    const out = await request(app.app).post('/en/logout').set('Origin', ORIGIN).set('Cookie', cookie);
    expect(out.status).toBeLessThan(400);
    expect(JSON.parse((await tab.next('end')).data)).toEqual({ reason: 'signed_out' });
    await tab.ended;
    expect(otherTab.events.map((e) => e.event)).not.toContain('end');
    // The other session ended from the profile of a third one: its tab hears it too.
    const third = await signIn(app.app, PEOPLE.owner.userName);
    expect((await postProfile(app.app, third, { intent: 'endOtherSessions' })).status).toBe(303);
    expect(JSON.parse((await otherTab.next('end')).data)).toEqual({ reason: 'signed_out' });
  });

  test('shutdown (drain) ends every stream so that browsers reconnect elsewhere; new ones get 503', async () => {
    const { app } = await site();
    const base = await listen(app);
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    const tab = await stream(base, cookie);
    await tab.next('unread');
    app.drain();
    await tab.ended;
    expect(tab.events.map((e) => e.event)).not.toContain('end');
    const refused = await stream(base, cookie);
    expect(refused.status).toBe(503);
  });

  test('two instances on one database: a message posted on A reaches a stream served by B', async () => {
    const open = await reopenableTestDatabase();
    const a = await site({}, await open());
    const b = await createTestApp(UNLIMITED, { db: await open() });
    const base = await listen(b);
    const tab = await stream(base, await signIn(b.app, PEOPLE.owner.userName));
    await tab.next('unread');
    // B serves no request of A's: only the change feed can tell its stream.
    await api(a.app.app, a.tokens.expert).post(`/projects/${a.id}/messages`, { body: 'From instance A' });
    await tab.next('project');
    await tab.next('notification');
    await b.close();
  });
});

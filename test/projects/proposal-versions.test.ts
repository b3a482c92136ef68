// Proposals are versions (docs/decisions/040): every proposal sent is kept (v1, v2 …) with its PDF; a new
// one sent while one is open supersedes it; only the newest open one can be answered, and the
// answer records the version, who, when and from which address in the history and the audit log.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Express } from 'express';
import request from 'supertest';
import type { Db } from '../../server/db/index.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { signIn } from '../my-account/helpers.ts';
import { api, BRIEF, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';

let app: Express;
let db: Db;
let tokens: Record<Person, string>;
beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  db = created.db;
  tokens = await signInEveryone(app, created.db);
});

const V1 = { scope: 'Inventory of the archive', fee: 7000, timeline: 'Three weeks' };
const V2 = { scope: 'Inventory and a catalogue', fee: 7800, timeline: 'Four weeks' };

/** A brief with v1 sent, then v2 sent while v1 was open. */
async function twoVersions(): Promise<number> {
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  expect((await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: V1 })).status).toBe(200);
  const again = await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: V2 });
  expect(again.status).toBe(200);
  return id;
}

describe('proposal versions', () => {
  test('sending again while one is open keeps both: v2 is the proposal, v1 is superseded', async () => {
    const id = await twoVersions();
    const seen = (await api(app, tokens.owner).get(`/projects/${id}`)).body;
    expect(seen.proposal).toMatchObject({ ...V2, version: 2, status: 'open', answeredAt: null });
    expect(seen.proposals.map((p: { version: number; status: string; fee: number }) => [p.version, p.status, p.fee])).toEqual([
      [2, 'open', 7800],
      [1, 'superseded', 7000],
    ]);
    expect(seen.actions).toEqual(['accept', 'decline']);
  });

  test('only the newest version can be answered: accepting v1 is a 409 that names v2, and nothing changes', async () => {
    const id = await twoVersions();
    const stale = await api(app, tokens.owner).patch(`/projects/${id}`, { action: 'accept', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'proposal_superseded' });
    expect(stale.body.error.message).toContain('v2');
    expect((await api(app, tokens.owner).get(`/projects/${id}`)).body.state).toBe('proposal');
  });

  test.each(['accept', 'decline'])(
    'an answer must say its version: %s without one is a 400 proposal_version_required naming version, and the newest (dearer) version is not taken',
    async (action) => {
      const id = await twoVersions();
      const res = await api(app, tokens.owner).patch(`/projects/${id}`, { action });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'proposal_version_required', fields: { version: 'validation.required' } });
      expect(res.body.error.message).toContain(`version is required to ${action} a proposal`);
      const seen = (await api(app, tokens.owner).get(`/projects/${id}`)).body;
      expect(seen.state).toBe('proposal');
      expect(seen.proposal).toMatchObject({ version: 2, status: 'open', answeredAt: null });
    },
  );

  test('the page form refuses an answer without its version with the reason, in the page’s language', async () => {
    const id = await twoVersions();
    const cookie = await signIn(app, 'acme');
    const answer = (path: string) =>
      request(app)
        .post(path)
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ intent: 'action', action: 'accept', confirmed: 'yes' });
    const english = await answer(`/en/client/projects/${id}`);
    expect(english.status).toBe(400);
    expect(english.text).toContain('Your answer did not say which version of the proposal you read');
    const spanish = await answer(`/client/projects/${id}`);
    expect(spanish.text).toContain('Tu respuesta no decía qué versión de la propuesta has leído');
    expect((await api(app, tokens.owner).get(`/projects/${id}`)).body.state).toBe('proposal');
  });

  test('the page form refuses an answer to a replaced version with the reason, in the page', async () => {
    const id = await twoVersions();
    const cookie = await signIn(app, 'acme');
    const res = await request(app)
      .post(`/en/client/projects/${id}`)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ intent: 'action', action: 'accept', confirmed: 'yes', version: '1' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('A newer version of the proposal was sent meanwhile');
  });

  test('accepting records the version, who and when in the history and the audit log, with the address', async () => {
    const id = await twoVersions();
    const accepted = await request(app)
      .patch(`/api/projects/${id}`)
      .set('Authorization', `Bearer ${tokens.owner}`)
      .set('X-Forwarded-For', '203.0.113.9')
      .send({ action: 'accept', version: 2 });
    expect(accepted.status).toBe(200);
    expect(accepted.body.proposal).toMatchObject({ version: 2, status: 'accepted', answeredBy: 'acme' });
    expect(accepted.body.proposals[1]).toMatchObject({ version: 1, status: 'superseded', answeredAt: null });

    const history = (await api(app, tokens.owner).get(`/projects/${id}/events`)).body.items as { kind: string; detail: string }[];
    expect(history.filter((e) => e.kind === 'proposal').map((e) => e.detail)).toEqual(['2:7800:1', '1:7000']);
    expect(history.find((e) => e.kind === 'state' && e.detail.startsWith('accept'))?.detail).toBe('accept:2');

    const audit = await db.k
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'proposal_accepted')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe('acme');
    expect(JSON.parse(audit.detail!)).toMatchObject({ project: id, version: 2, fee: 7800 });
    expect(audit.ip).toBeTruthy();
  });

  test('each version keeps its PDF: ?version=1 is v1, a version never sent is no page', async () => {
    const id = await twoVersions();
    const cookie = await signIn(app, 'acme');
    const v1 = await request(app).get(`/en/documents/projects/${id}/proposal.pdf?version=1`).set('Cookie', cookie).buffer(true);
    expect(v1.status).toBe(200);
    expect(v1.headers['content-type']).toBe('application/pdf');
    const none = await request(app).get(`/en/documents/projects/${id}/proposal.pdf?version=9`).set('Cookie', cookie);
    expect(none.status).toBe(404);
  });

  test('a replayed acceptance changes nothing more: 409, one history line, one audit entry', async () => {
    const id = await twoVersions();
    const accept = () => api(app, tokens.owner).patch(`/projects/${id}`, { action: 'accept', version: 2 });
    expect((await accept()).status).toBe(200);
    const again = await accept();
    expect(again.status).toBe(409);
    const history = (await api(app, tokens.owner).get(`/projects/${id}/events`)).body.items as { kind: string; detail: string }[];
    expect(history.filter((e) => e.kind === 'state' && e.detail === 'accept:2')).toHaveLength(1);
    const audits = await db.k
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'proposal_accepted')
      .execute()
      .then((rows) => rows.filter((r) => JSON.parse(r.detail!).project === id));
    expect(audits).toHaveLength(1);
  });

  test('an earlier version’s PDF is no page for an outsider, nor for a version that is not a number or is huge', async () => {
    const id = await twoVersions();
    const outsider = await signIn(app, PEOPLE.otherClient.userName);
    const pdf = (cookie: string, version: string) =>
      request(app)
        .get(`/en/documents/projects/${id}/proposal.pdf?version=${encodeURIComponent(version)}`)
        .set('Cookie', cookie);
    expect((await pdf(outsider, '1')).status).toBe(404);
    const owner = await signIn(app, 'acme');
    for (const version of ['0', '-1', '1.0', 'v1', '9'.repeat(5000)])
      expect((await pdf(owner, version)).status, version.slice(0, 10)).toBe(404);
  });

  test('a project cancelled with a proposal open leaves it withdrawn', async () => {
    const id = await twoVersions();
    expect((await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'cancel' })).status).toBe(200);
    const seen = (await api(app, tokens.admin).get(`/projects/${id}`)).body;
    expect(seen.proposals.map((p: { status: string }) => p.status)).toEqual(['withdrawn', 'superseded']);
  });
});

// Deleting an account: the user asks on their profile with their password (and may withdraw it),
// an admin confirms or refuses in the console; confirming erases the account — the user cannot
// sign in, their sessions end — while their project messages stay as "Deleted user" and the
// projects they owned stay for the company's records. The last admin cannot be deleted.
import type { Express } from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { DELETED_USER } from '../../shared/account.ts';
import { ORIGIN } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';
import { activeProject, api, PEOPLE, PNG_BYTES, signInEveryone, UNLIMITED } from '../projects/fixtures.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { appWithAudit, postProfile, profileData, profileStatus, signIn } from './helpers.ts';

async function engagement() {
  const ctx = await appWithAudit(UNLIMITED);
  const tokens = await signInEveryone(ctx.app, ctx.db);
  const id = await activeProject(ctx.app, tokens);
  await api(ctx.app, tokens.owner).post(`/projects/${id}/messages`, { body: 'Carla: the figures of shop 7 are late.' });
  await api(ctx.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Eva: the first dashboard is ready.' });
  const owner = await signIn(ctx.app, PEOPLE.owner.userName);
  const admin = await signIn(ctx.app, PEOPLE.admin.userName);
  return { ...ctx, tokens, id, owner, admin };
}

function adminApi(app: Express, cookie: string) {
  return {
    list: () => request(app).get('/api/admin/deletion-requests').set('Cookie', cookie),
    confirm: (userName: string) =>
      request(app)
        .post(`/api/admin/deletion-requests/${encodeURIComponent(userName)}/confirm`)
        .set('Origin', ORIGIN)
        .set('Cookie', cookie),
    refuse: (userName: string) =>
      request(app)
        .post(`/api/admin/deletion-requests/${encodeURIComponent(userName)}/refuse`)
        .set('Origin', ORIGIN)
        .set('Cookie', cookie),
  };
}

const askToDelete = (app: Express, cookie: string, password = DEFAULT_PASSWORD, json = false) =>
  postProfile(app, cookie, { intent: 'requestDeletion', currentPassword: password }, { json });

test('a user asks for their account to be deleted with their password; the profile shows the request pending; they can withdraw it', async () => {
  const { app, owner, audit } = await engagement();
  expect((await profileData(app, owner)).account!.deletion).toEqual({ status: 'none' });
  const res = await askToDelete(app, owner);
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/profile?saved=deletionRequested#deletion-title');
  const { account } = await profileData(app, owner);
  expect(account!.deletion).toMatchObject({ status: 'pending' });
  const page = await request(app).get('/en/profile?saved=deletionRequested').set('Cookie', owner);
  expect(page.text).toContain('We have your request. An administrator will confirm it.');
  expect(page.text).toContain('Withdraw the request');
  expect(audit).toContainEqual(expect.objectContaining({ action: 'deletion_requested', actor: 'acme', detail: { request: 'made' } }));

  const withdrawn = await postProfile(app, owner, { intent: 'withdrawDeletion' }, { json: true });
  expect(withdrawn.body).toEqual({
    ok: true,
    redirect: '/en/profile?saved=deletionWithdrawn#deletion-title',
    success: 'deletionWithdrawn',
  });
  expect((await profileData(app, owner)).account!.deletion).toEqual({ status: 'none' });
  expect(audit).toContainEqual(expect.objectContaining({ action: 'deletion_requested', actor: 'acme', detail: { request: 'withdrawn' } }));
});

test('a wrong password asks nothing (422 naming the field), without and with JavaScript; an empty one is required', async () => {
  const { app, owner } = await engagement();
  const wrong = await askToDelete(app, owner, 'not my password at all');
  expect(wrong.status).toBe(422);
  expect(wrong.text).toContain('id="deletion-currentPassword-error"');
  expect(wrong.text).toContain('The current password is not correct.');
  const json = await askToDelete(app, owner, 'still not my password', true);
  expect(json.status).toBe(422);
  expect(json.body.form).toMatchObject({
    form: 'deletion',
    error: { code: 'wrong_current_password', fields: { currentPassword: 'validation.wrongCurrentPassword' } },
  });
  const empty = await askToDelete(app, owner, '', true);
  expect(empty.status).toBe(422);
  expect(empty.body.form.error.fields).toEqual({ currentPassword: 'validation.required' });
  expect((await profileData(app, owner)).account!.deletion).toEqual({ status: 'none' });
});

test('wrong passwords on the deletion form are guesses like any other: limited per account (429)', async () => {
  const ctx = await appWithAudit({ PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT: '2' });
  await addUser(ctx.db, { userName: 'pat', role: 'CLI' });
  const cookie = await signIn(ctx.app, 'pat');
  for (let i = 0; i < 2; i++) expect((await askToDelete(ctx.app, cookie, `wrong guess ${i}`)).status).toBe(422);
  const limited = await askToDelete(ctx.app, cookie);
  expect(limited.status).toBe(429);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  expect((await profileData(ctx.app, cookie)).account!.deletion).toEqual({ status: 'none' });
});

test('admins list the pending requests; everyone else is refused (401 signed out, 403 not an admin)', async () => {
  const { app, owner, admin } = await engagement();
  await askToDelete(app, owner);
  const list = await adminApi(app, admin).list();
  expect(list.status).toBe(200);
  expect(list.body.items).toEqual([
    expect.objectContaining({ userName: 'acme', name: 'Carla', lastName: 'Acme', email: 'carla@acme.example', role: 'CLI' }),
  ]);
  expect(list.headers['cache-control']).toBe('private, no-store');
  expect((await adminApi(app, owner).list()).status).toBe(403);
  expect((await adminApi(app, owner).confirm('acme')).status).toBe(403);
  expect((await request(app).get('/api/admin/deletion-requests')).status).toBe(401);
});

test('deletion end to end: asked, confirmed by an admin; the user cannot sign in, their sessions end, their message shows "Deleted user" and their project stays for admins', async () => {
  const { app, db, tokens, id, owner, admin, audit } = await engagement();
  // Things that are only theirs: an avatar, a branding record, their language.
  const avatar = await request(app)
    .put('/api/me/avatar')
    .set('Authorization', `Bearer ${tokens.owner}`)
    .set('Content-Type', 'image/png')
    .send(PNG_BYTES);
  expect(avatar.status, JSON.stringify(avatar.body)).toBe(200);
  expect(await db.k.selectFrom('uploads').select('url').where('owner', '=', 'acme').execute()).toHaveLength(1);
  expect((await api(app, tokens.admin).put('/admin/branding/acme', { color: '#123456' })).status).toBe(200);
  // A second factor and a pending single-use link: a later account of the same name must not inherit them.
  const at = new Date().toISOString();
  await db.k
    .insertInto('two_factor')
    .values({ user_name: 'acme', secret: 'sealed', enabled_at: at, last_step: null, created_at: at })
    .execute();
  await db.k.insertInto('two_factor_recovery_codes').values({ user_name: 'acme', digest: 'd', used_at: null, created_at: at }).execute();
  await db.k
    .insertInto('account_links')
    .values({
      kind: 'password_reset',
      user_name: 'acme',
      token_digest: 'digest-of-acme',
      new_email: null,
      expires_at: Date.now() + 3_600_000,
      used_at: null,
      created_at: at,
    })
    .execute();
  expect((await askToDelete(app, owner)).status).toBe(303);

  const confirmed = await adminApi(app, admin).confirm('acme');
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  expect(confirmed.body).toEqual({ deleted: 'acme' });

  // Gone: no sign-in, no session, no row of theirs.
  const login = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'acme', password: DEFAULT_PASSWORD });
  expect(login.status).toBe(401);
  expect(await profileStatus(app, owner)).toBe(302);
  expect((await request(app).get('/api/me').set('Authorization', `Bearer ${tokens.owner}`)).status).toBe(401);
  for (const [table, column] of [
    ['users', 'user_name'],
    ['sessions', 'user_name'],
    ['branding', 'user_name'],
    ['user_locales', 'user_name'],
    ['uploads', 'owner'],
    ['deletion_requests', 'user_name'],
    ['two_factor', 'user_name'],
    ['two_factor_recovery_codes', 'user_name'],
    ['account_links', 'user_name'],
  ] as const) {
    expect(await db.k.selectFrom(table).selectAll().where(column, '=', 'acme').execute(), table).toEqual([]);
  }

  // The project stays, owned by a deleted user; the message stays, by a deleted user.
  const project = await api(app, tokens.admin).get(`/projects/${id}`);
  expect(project.status).toBe(200);
  expect(project.body.owner).toMatchObject({ userName: DELETED_USER, name: '' });
  const english = await request(app).get(`/en/admin/projects/${id}`).set('Cookie', admin);
  expect(english.status).toBe(200);
  expect(english.text).toContain('Carla: the figures of shop 7 are late.');
  expect(english.text).toMatch(/<strong>Deleted user<\/strong>/);
  expect(english.text).not.toContain('Carla Acme');
  const spanish = await request(app).get(`/admin/projects/${id}`).set('Cookie', admin);
  expect(spanish.text).toMatch(/<strong>Usuario eliminado<\/strong>/);
  const expertView = await request(app)
    .get(`/en/expert/projects/${id}`)
    .set('Cookie', await signIn(app, 'eva'));
  expect(expertView.text).toMatch(/<strong>Deleted user<\/strong>/);
  expect(expertView.text).toContain('Eva: the first dashboard is ready.');

  // The audit keeps who was deleted, by whom.
  expect(audit).toContainEqual(
    expect.objectContaining({ action: 'user_deleted', actor: 'staff', target: 'acme', detail: { role: 'CLI' } }),
  );
  expect((await adminApi(app, admin).list()).body.items).toEqual([]);
});

test('a new account that takes a deleted user name inherits nothing of the old one', async () => {
  const { app, db, id, owner, admin } = await engagement();
  await askToDelete(app, owner);
  expect((await adminApi(app, admin).confirm('acme')).status).toBe(200);
  await addUser(db, { userName: 'acme', role: 'CLI', name: 'New', lastName: 'Person' });
  const cookie = await signIn(app, 'acme');
  expect((await request(app).get(`/en/client/projects/${id}`).set('Cookie', cookie)).status).toBe(404);
  const data = JSON.parse((await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).text);
  expect(data.projects).toEqual([]);
  expect(data.messages).toEqual([]);
});

test('nobody can take the user name that deleted accounts leave behind (409 userName_taken)', async () => {
  const { db } = await engagement();
  await expect(addUser(db, { userName: DELETED_USER, role: 'CLI' })).rejects.toMatchObject({ status: 409, code: 'userName_taken' });
});

test("a deleted expert leaves the project's team, and the history and thread name them as a deleted user", async () => {
  const { app, db, tokens, id, admin } = await engagement();
  const eva = await signIn(app, 'eva');
  await askToDelete(app, eva);
  expect((await adminApi(app, admin).confirm('eva')).status).toBe(200);
  expect(await db.k.selectFrom('project_experts').selectAll().where('project_id', '=', id).execute()).toEqual([]);
  expect(await db.k.selectFrom('expertise').selectAll().where('user_name', '=', 'eva').execute()).toEqual([]);
  const page = await request(app).get(`/en/admin/projects/${id}`).set('Cookie', admin);
  expect(page.text).not.toContain('Eva Expert');
  expect(page.text).toContain('Eva: the first dashboard is ready.');
  expect(page.text).toMatch(/<strong>Deleted user<\/strong>/);
  // "Sara Staff assigned Deleted user" in the history, and in Spanish.
  expect(page.text).toContain('Sara Staff assigned Deleted user');
  const spanish = await request(app).get(`/admin/projects/${id}`).set('Cookie', admin);
  expect(spanish.text).toContain('Usuario eliminado');
  expect(spanish.text).not.toContain('Eva Expert');
  // Without an expert, the active project waits for the admin to assign another.
  expect((await api(app, tokens.admin).get(`/projects/${id}`)).body).toMatchObject({ experts: [], waiting: 'assign_expert' });
});

test('an admin refuses: the user sees the refusal on the profile and may ask again', async () => {
  const { app, owner, admin, audit } = await engagement();
  await askToDelete(app, owner);
  const refused = await adminApi(app, admin).refuse('acme');
  expect(refused.status).toBe(200);
  expect((await profileData(app, owner)).account!.deletion).toMatchObject({ status: 'refused' });
  const page = await request(app).get('/en/profile').set('Cookie', owner);
  expect(page.text).toContain('An administrator refused your request');
  expect(page.text).toContain('Ask to delete my account');
  expect(await profileStatus(app, owner)).toBe(200);
  expect(audit).toContainEqual(
    expect.objectContaining({ action: 'deletion_requested', actor: 'staff', target: 'acme', detail: { request: 'refused' } }),
  );
  // A refused request is not pending: it cannot be confirmed.
  expect((await adminApi(app, admin).confirm('acme')).body.error.code).toBe('request_not_found');
  await askToDelete(app, owner);
  expect((await profileData(app, owner)).account!.deletion).toMatchObject({ status: 'pending' });
});

test('confirming or refusing when nothing is pending answers 404 request_not_found and deletes nothing', async () => {
  const { app, db, admin } = await engagement();
  for (const res of [
    await adminApi(app, admin).confirm('acme'),
    await adminApi(app, admin).refuse('acme'),
    await adminApi(app, admin).confirm('nobody'),
  ]) {
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('request_not_found');
  }
  expect(await db.k.selectFrom('users').select('user_name').where('user_name', '=', 'acme').execute()).toHaveLength(1);
});

test('the last admin cannot be deleted: 409 last_admin, and the account stays', async () => {
  const { app, db, admin } = await engagement();
  expect((await askToDelete(app, admin)).status).toBe(303);
  const res = await adminApi(app, admin).confirm('staff');
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe('last_admin');
  expect(await profileStatus(app, admin)).toBe(200);
  expect(await db.k.selectFrom('users').select('user_name').where('role', '=', 'ADMIN').execute()).toHaveLength(1);
  // A disabled admin does not count: they cannot run the site.
  await addUser(db, { userName: 'sleeper', role: 'ADMIN' });
  await db.k.updateTable('users').set({ disabled: 1 }).where('user_name', '=', 'sleeper').execute();
  expect((await adminApi(app, admin).confirm('staff')).body.error.code).toBe('last_admin');
});

test("an admin's own request is confirmed by another admin (409 own_request), who may delete them", async () => {
  const { app, db, admin } = await engagement();
  await addUser(db, { userName: 'boss', role: 'ADMIN' });
  const boss = await signIn(app, 'boss');
  await askToDelete(app, admin);
  const own = await adminApi(app, admin).confirm('staff');
  expect(own.status).toBe(409);
  expect(own.body.error.code).toBe('own_request');
  expect((await adminApi(app, boss).confirm('staff')).status).toBe(200);
  // Now boss is the last one.
  await askToDelete(app, boss);
  expect((await adminApi(app, boss).confirm('boss')).body.error.code).toBe('last_admin');
});

test('two admins deleting each other at the same moment leave one admin', async () => {
  const { app, db, admin } = await engagement();
  await addUser(db, { userName: 'boss', role: 'ADMIN' });
  const boss = await signIn(app, 'boss');
  await askToDelete(app, admin);
  await askToDelete(app, boss);
  const [a, b] = await Promise.all([adminApi(app, admin).confirm('boss'), adminApi(app, boss).confirm('staff')]);
  const statuses = [a.status, b.status].sort();
  expect(statuses[0]).toBe(200);
  // The other one finds the site's last admin (409), or its own session already gone (401).
  expect([401, 409]).toContain(statuses[1]);
  expect(await db.k.selectFrom('users').select('user_name').where('role', '=', 'ADMIN').execute()).toHaveLength(1);
});

test("the project's PDF report names a deleted owner as a deleted user, in the document's language", async () => {
  const { app, id, owner, admin } = await engagement();
  await askToDelete(app, owner);
  expect((await adminApi(app, admin).confirm('acme')).status).toBe(200);
  const pdf = async (path: string) =>
    pdfText(
      (
        await request(app)
          .get(path)
          .set('Cookie', admin)
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          })
      ).body as Buffer,
    );
  const english = await pdf(`/en/documents/projects/${id}/report.pdf`);
  expect(english).toContain('Deleted user');
  expect(english).not.toContain('Carla');
  expect(english).not.toContain(DELETED_USER);
  expect(await pdf(`/documents/projects/${id}/report.pdf`)).toContain('Usuario eliminado');
});

// Finding 3 (medium): any signed-in user could fill the disk — each avatar upload wrote a new
// file and the old one stayed (30 MB in half a second). And finding 12 (info): the database and
// the uploads were readable by every user of the machine.
import type { Express } from 'express';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import { createUser } from '../../server/users/users.ts';
import { databaseFile, openDatabase, type Db } from '../../server/db/index.ts';
import { createTestApp } from '../helpers/app.ts';
import { loginToken } from '../helpers/users.ts';

const PASSWORD = 'correct horse battery';

/** A PNG of about `bytes` bytes (the signature, then padding): what the magic-bytes check accepts. */
function png(bytes = 2048, fill = 7): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(bytes - 8, fill)]);
}

/** The names of the stored uploads of a folder (they live in the database, on every engine). */
async function filesIn(db: Db, folder: string): Promise<string[]> {
  const rows = await db.k.selectFrom('uploads').select('url').where('url', 'like', `/api/${folder}/%`).execute();
  return rows.map((r) => r.url.split('/').pop()!);
}

/** An app whose uploads go to a fresh DATA_DIR (returned), with a CLI user and an admin signed in. */
async function setup(env: Record<string, string> = {}) {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'uploads-'));
  const { app, db } = await createTestApp({ ...env, DATA_DIR: dataDir });
  await createUser(db, { userName: 'mallory', password: PASSWORD, role: 'CLI', name: 'Mal', lastName: 'Lory' });
  await createUser(db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'Root', lastName: 'Admin' });
  return { app, db, dataDir, mallory: await loginToken(app, 'mallory'), root: await loginToken(app, 'root') };
}

function uploadAvatar(app: Express, token: string, image = png()) {
  return request(app).put('/api/me/avatar').set('Authorization', `Bearer ${token}`).set('Content-Type', 'image/png').send(image);
}

test('thirty avatar uploads in a row: the uploads past the rate answer 429 with Retry-After, and one file is left stored', async () => {
  const { app, db, mallory } = await setup({ UPLOADS_PER_MINUTE: '10' });
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 30; i++) {
    const res = await uploadAvatar(app, mallory, png(2048, i));
    statuses.push(res.status);
    if (res.status === 429) retryAfter = res.headers['retry-after'];
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(await filesIn(db, 'avatars')).toHaveLength(1);
});

test('a replaced avatar is deleted: its URL answers 404 and only the new file stays', async () => {
  const { app, db, mallory } = await setup();
  const first = (await uploadAvatar(app, mallory, png(2048, 1))).body.user.avatar as string;
  const second = (await uploadAvatar(app, mallory, png(2048, 2))).body.user.avatar as string;
  expect(second).not.toBe(first);
  expect((await request(app).get(first)).status).toBe(404);
  expect((await request(app).get(second)).status).toBe(200);
  expect(await filesIn(db, 'avatars')).toEqual([second.split('/').pop()]);
});

test('uploads racing each other leave no file behind', async () => {
  const { app, db, mallory } = await setup({ UPLOADS_PER_MINUTE: '100' });
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => uploadAvatar(app, mallory, png(4096, i))));
  expect(answers.every((a) => a.status === 200)).toBe(true);
  expect(await filesIn(db, 'avatars')).toHaveLength(1);
});

test('a replaced or removed branding logo is deleted too', async () => {
  const { app, db, root } = await setup();
  const put = (image: Buffer) =>
    request(app)
      .put('/api/admin/branding/mallory/logo')
      .set('Authorization', `Bearer ${root}`)
      .set('Content-Type', 'image/png')
      .send(image);
  const first = (await put(png(2048, 1))).body.branding.logo as string;
  const second = (await put(png(2048, 2))).body.branding.logo as string;
  expect(await filesIn(db, 'branding-logos')).toEqual([second.split('/').pop()]);
  expect((await request(app).get(first)).status).toBe(404);
  const removed = await request(app).delete('/api/admin/branding/mallory/logo').set('Authorization', `Bearer ${root}`);
  expect(removed.status).toBe(200);
  expect(await filesIn(db, 'branding-logos')).toEqual([]);
});

test('each user has a quota of stored bytes: past it an upload answers 413, while replacing one’s own file still works', async () => {
  const { app, db, mallory, root } = await setup({ UPLOAD_QUOTA_MB: '1' });
  const big = 700 * 1024;
  expect((await uploadAvatar(app, mallory, png(big, 1))).status).toBe(200);
  // Replacing the avatar with another of the same size is within the quota (the old one goes).
  expect((await uploadAvatar(app, mallory, png(big, 2))).status).toBe(200);
  // A logo for the same user would take them past 1 MB.
  const logo = await request(app)
    .put('/api/admin/branding/mallory/logo')
    .set('Authorization', `Bearer ${root}`)
    .set('Content-Type', 'image/png')
    .send(png(big, 3));
  expect(logo.status).toBe(413);
  expect(logo.body.error.code).toBe('upload_quota_exceeded');
  expect(await filesIn(db, 'branding-logos')).toEqual([]);
});

test('the database, its folder and the uploads are readable by the site’s own user only (0600 / 0700)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'uploads-'));
  const { app, mallory } = await setup({ DATA_DIR: join(dataDir, 'data') });
  // The app of createTestApp runs on a database of its own: open the real file as the server does.
  const file = await openDatabase({ file: databaseFile(join(dataDir, 'data')) });
  await file.k.selectFrom('users').select('id').execute();
  const mode = (path: string) => statSync(path).mode & 0o777;
  expect(mode(join(dataDir, 'data'))).toBe(0o700);
  for (const name of ['site.db', 'site.db-wal', 'site.db-shm']) expect(mode(join(dataDir, 'data', name)), name).toBe(0o600);
  await file.close();
  // Uploads live in the database now: nothing is written beside it.
  expect((await uploadAvatar(app, mallory)).status).toBe(200);
  expect(readdirSync(join(dataDir, 'data')).filter((name) => !name.startsWith('site.db'))).toEqual([]);
});

test('a client-chosen X-Request-Id is ignored unless it comes through a trusted proxy', async () => {
  const { app } = await createTestApp();
  const direct = await request(app).get('/healthz').set('X-Request-Id', 'attacker-chosen-id');
  expect(direct.headers['x-request-id']).not.toBe('attacker-chosen-id');
  const { app: behindProxy } = await createTestApp({ TRUST_PROXY: 'loopback' });
  const proxied = await request(behindProxy).get('/healthz').set('X-Request-Id', 'proxy-id-12345');
  expect(proxied.headers['x-request-id']).toBe('proxy-id-12345');
});

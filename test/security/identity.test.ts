// Attacks on who is who (docs/decisions/029-limits-and-identity.md): a user
// name or an address written another way must be the same user everywhere or refused, never a
// second user whom one check takes for the first; a document's name must not lie about its type.
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect, inject, test } from 'vitest';
import { run } from '../../scripts/user.ts';
import { canonicalIdentity, identityProblem } from '../../shared/identity.ts';
import { openDatabase, migrate, type Db } from '../../server/db/index.ts';
import { MIGRATIONS } from '../../server/db/migrations.ts';
import { projectFor } from '../../server/projects/access.ts';
import { createUser, findUser } from '../../server/users/users.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { addUser, DEFAULT_PASSWORD, loginToken, userRow } from '../helpers/users.ts';
import { api, BRIEF, PDF, PNG_BYTES, signInEveryone, UNLIMITED } from '../projects/fixtures.ts';

const KELVIN = '\u212a';

/* The canonical form --------------------------------------------------------------------- */

test.each([
  ['U+212A KELVIN SIGN is K', `${KELVIN}ato`, 'kato'],
  ['full-width letters are ASCII', 'ａｎａ', 'ana'],
  ['U+0130 İ is i and a combining dot, as JavaScript lower-cases it', 'İnci', 'i\u0307nci'],
  ['ẞ is ß, and ß stays ß', 'STRAẞE', 'straße'],
  ['case goes, and the ends are trimmed', '  Ana.Ruiz ', 'ana.ruiz'],
  ['an e-mail address in any case is one address', 'Ana@Example.COM', 'ana@example.com'],
])('the canonical form: %s', (_rule, written, canonical) => {
  expect(canonicalIdentity(written)).toBe(canonical);
  expect(canonicalIdentity(canonical)).toBe(canonical);
});

const LOOK_ALIKES = [
  ['U+212A KELVIN SIGN', `${KELVIN}ato`, /U\+212A.*variant of "K"/],
  ['full-width letters', 'ａｎａ', /U\+FF41.*variant of "a"/],
  ['U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE', 'İnci', /U\+0130.*look-alike of "I"/],
  ['a Cyrillic а among Latin letters', 'аna', /mixes Cyrillic and Latin letters/],
  ['a zero-width space', 'ana\u200b', /U\+200B, an invisible character/],
  ['a right-to-left override', 'ana\u202efdp', /U\+202E, a bidirectional control/],
  ['a control character', 'ana\u0007', /U\+0007, a control character/],
] as const;

test.each(LOOK_ALIKES)('a name with %s is a look-alike, and the reason names the character', (_what, name, reason) => {
  expect(identityProblem(name)).toMatch(reason);
});

test.each(['ana', 'ana.ruiz-2', 'josé', 'straße', '山田たろう', 'иван'])('%s is no look-alike', (name) => {
  expect(identityProblem(name)).toBeNull();
});

/* The API and the ops CLI refuse look-alikes ---------------------------------------------- */

async function siteWithAdmin() {
  const site = await createTestApp();
  await addUser(site.db, { userName: 'root', role: 'ADMIN', email: 'root@example.com' });
  await addUser(site.db, { userName: 'kato', role: 'CLI', email: 'kato@example.com' });
  return { ...site, admin: await loginToken(site.app, 'root') };
}

test.each(LOOK_ALIKES)(`the API refuses a new user name with %s, naming the problem (${TEST_ENGINE})`, async (_what, name, reason) => {
  const { app, db, admin } = await siteWithAdmin();
  const res = await request(app)
    .post('/api/admin/users')
    .set('Authorization', `Bearer ${admin}`)
    .send({ userName: name, name: 'Look', lastName: 'Alike', role: 'CLI', password: 'a strong password' });
  expect(res.status).toBe(400);
  expect(res.body.error.fields.userName).toMatch(reason);
  expect(res.body.error.message).toMatch(reason);
  expect(await db.k.selectFrom('users').select('user_name').where('user_name', 'not in', ['root', 'kato']).execute()).toEqual([]);
});

test(`the API refuses a new e-mail address that mixes scripts or hides a character, naming it (${TEST_ENGINE})`, async () => {
  const { app, admin } = await siteWithAdmin();
  for (const [email, reason] of [
    ['kato@exаmple.com', /mixes Latin and Cyrillic letters \(.*а U\+0430 is Cyrillic\)/],
    ['ka\u200dto@example.com', /U\+200D, an invisible character/],
    ['ｋato2@example.com', /U\+FF4B.*variant of "k"/],
  ] as const) {
    const res = await request(app)
      .post('/api/admin/users')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userName: 'newcomer', email, name: 'New', lastName: 'Comer', role: 'CLI', password: 'a strong password' });
    expect(res.status, email).toBe(400);
    expect(res.body.error.fields.email, email).toMatch(reason);
  }
});

test(`a user name or address that normalises to an existing one is taken, and the answer names the existing one (${TEST_ENGINE})`, async () => {
  const { app, admin } = await siteWithAdmin();
  const create = (fields: object) =>
    request(app)
      .post('/api/admin/users')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Dup', lastName: 'Licate', role: 'CLI', password: 'a strong password', ...fields });
  const name = await create({ userName: 'KATO' });
  expect(name.status).toBe(409);
  expect(name.body.error).toMatchObject({
    code: 'userName_taken',
    message: 'The user name "KATO" is already in use (it reads as "kato", which is)',
  });
  const email = await create({ userName: 'kato2', email: 'KATO@Example.com' });
  expect(email.status).toBe(409);
  expect(email.body.error.code).toBe('email_taken');
  expect(email.body.error.message).toContain('"kato@example.com"');
});

test(`user names and addresses are stored in their canonical form, and sign in however they are written (${TEST_ENGINE})`, async () => {
  const { app, db } = await createTestApp();
  const user = await createUser(db, {
    userName: 'Ana.Ruiz',
    email: 'Ana@Example.COM',
    password: DEFAULT_PASSWORD,
    role: 'CLI',
    name: 'Ana',
    lastName: 'Ruiz',
  });
  expect([user.userName, user.email]).toEqual(['ana.ruiz', 'ana@example.com']);
  const stored = await db.k.selectFrom('users').select(['user_name', 'email']).executeTakeFirstOrThrow();
  expect(stored).toEqual({ user_name: 'ana.ruiz', email: 'ana@example.com' });
  for (const identifier of ['ana.ruiz', 'ANA.RUIZ', 'ana@example.com', 'ANA@EXAMPLE.COM', 'ａｎａ@example.com']) {
    const res = await request(app).post('/api/login').set('Origin', ORIGIN).send({ identifier, password: DEFAULT_PASSWORD });
    expect(res.status, identifier).toBe(200);
  }
});

test.runIf(TEST_ENGINE === 'sqlite')('the ops CLI refuses a look-alike user name with a message naming the character', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-'));
  const add = (userName: string) =>
    run(
      ['add', '--userName', userName, '--password', 'ops horse battery', '--role', 'CLI', '--name', 'Op', '--lastName', 'S'],
      dataDir,
      () => {},
    );
  await add('kato');
  await expect(add(`${KELVIN}ato2`)).rejects.toThrow(/^The user name "\u212aato2" contains U\+212A \(\u212a\), a variant of "K"/);
  await expect(add('kаto3')).rejects.toThrow(/mixes Latin and Cyrillic letters/);
  await expect(add('KATO')).rejects.toThrow('The user name "KATO" is already in use (it reads as "kato", which is)');
  await expect(add('k@to')).rejects.toThrow(/must be 2–40 letters, digits, dots, hyphens or underscores/);
});

/* A look-alike never opens another's project ----------------------------------------------- */

test(`a stored user name with U+212A KELVIN SIGN never matches the owner it looks like: no sign-in as them, no access to their project (${TEST_ENGINE})`, async () => {
  const { app, db } = await createTestApp(UNLIMITED);
  const tokens = await signInEveryone(app, db);
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  // A row left from before the rules (or written straight into the database).
  const lookAlike = 'acme'.replace('a', '\u0430');
  await db.k
    .insertInto('users')
    .values(userRow({ user_name: lookAlike, role: 'CLI' }))
    .execute();
  await db.k
    .insertInto('users')
    .values(userRow({ user_name: `${KELVIN}ato`, role: 'CLI' }))
    .execute();
  for (const userName of [lookAlike, `${KELVIN}ato`]) {
    await expect(projectFor(db, { userName, role: 'CLI', name: 'X', lastName: 'Y' }, id)).rejects.toMatchObject({ status: 404 });
  }
  // The owner's own name, as the database keeps it, is the owner (her company's manager).
  expect((await projectFor(db, { userName: 'acme', role: 'CLI', name: 'C', lastName: 'A' }, id)).standing).toBe('manager');
  // Typing the look-alike at sign-in names the canonical user ("kato"), who does not exist here: 401.
  const res = await request(app)
    .post('/api/login')
    .set('Origin', ORIGIN)
    .send({ identifier: `${KELVIN}ato`, password: 'x'.repeat(12) });
  expect(res.status).toBe(401);
});

test('an external API that names a look-alike user gets no session on the site (403, named)', async () => {
  const secret = 'upstream-shared-secret-that-is-long-enough';
  const key = new TextEncoder().encode(secret);
  const upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', async () => {
      const { identifier } = JSON.parse(body || '{}') as { identifier: string };
      const token = await new SignJWT({ name: 'Up', lastName: 'Stream', userName: identifier, role: 'CLI', avatar: null, scope: [] })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(key);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  try {
    const { app } = await createTestApp({
      API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
      API_JWT_SECRET: secret,
    });
    const signIn = (identifier: string) =>
      request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier, password: 'anything at all' });
    const refused = await signIn(`${KELVIN}ato`);
    expect(refused.status).toBe(403);
    expect(String(refused.headers['set-cookie'] ?? '')).not.toMatch(/auth\._token\.local=[^;]/);
    expect((await signIn('Kato')).status).toBe(303);
  } finally {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});

/* Existing rows: the migration --------------------------------------------------------------- */

/** A database of the run's engine with every migration before the canonical forms'. */
async function databaseBeforeCanonicalForms(): Promise<Db> {
  const db =
    TEST_ENGINE === 'sqlite'
      ? await openDatabase({ file: ':memory:', migrate: false })
      : await openDatabase({ url: await createTestDatabase(inject('postgresUrl')), poolMax: 2, migrate: false });
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 12),
  );
  return db;
}

const appliedVersions = async (db: Db) =>
  (await sql<{ version: number }>`SELECT version FROM schema_migrations ORDER BY version`.execute(db.k)).rows.map((r) => Number(r.version));

test(`the migration puts stored user names and addresses, and every column that names a user, in canonical form (${TEST_ENGINE})`, async () => {
  const db = await databaseBeforeCanonicalForms();
  try {
    const at = new Date().toISOString();
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'Ana.Ruiz', email: 'Ana@Example.COM' }))
      .execute();
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'ｂｅａ', email: null }))
      .execute();
    await db.k.insertInto('branding').values({ user_name: 'Ana.Ruiz', color: '#112233', logo: null, updated_at: at }).execute();
    await db.k
      .insertInto('projects')
      .values({
        title: 'T',
        description: 'D',
        practice: 'data',
        state: 'brief',
        owner: 'ANA.RUIZ',
        owner_name: 'Ana',
        owner_role: 'CLI',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db.k
      .insertInto('sessions')
      .values({
        id: 's1',
        user_name: 'Ana.Ruiz',
        created_at: at,
        last_seen_at: at,
        expires_at: 0,
        user_agent: null,
        ip: null,
        api_token: 't',
        token_digest: 'd',
      })
      .execute();
    await migrate(db);
    expect(await appliedVersions(db)).toContain(12);
    const exact = (column: string) => (TEST_ENGINE === 'postgres' ? sql.raw(`${column}::text`) : sql.raw(`${column} COLLATE BINARY`));
    const users = await sql<{
      n: string;
      e: string | null;
    }>`SELECT ${exact('user_name')} AS n, ${exact('email')} AS e FROM users ORDER BY id`.execute(db.k);
    expect(users.rows).toEqual([
      { n: 'ana.ruiz', e: 'ana@example.com' },
      { n: 'bea', e: null },
    ]);
    // (Her branding row became her company's in migration 18: the company's member row names her.)
    const members = await sql<{ v: string }>`SELECT ${exact('user_name')} AS v FROM company_members ORDER BY v`.execute(db.k);
    expect(members.rows).toEqual([{ v: 'ana.ruiz' }, { v: 'bea' }]);
    for (const [table, column] of [
      ['projects', 'owner'],
      ['sessions', 'user_name'],
    ]) {
      const rows = await sql<{ v: string }>`SELECT ${exact(column!)} AS v FROM ${sql.table(table!)}`.execute(db.k);
      expect(rows.rows, `${table}.${column}`).toEqual([{ v: 'ana.ruiz' }]);
    }
    expect((await findUser(db, 'ＢＥＡ'))?.userName).toBe('bea');
  } finally {
    await db.close();
  }
});

test(`the migration stops, naming both users, when two would become one; nothing is changed (${TEST_ENGINE})`, async () => {
  const db = await databaseBeforeCanonicalForms();
  try {
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'kato', email: 'kato@example.com' }))
      .execute();
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: `${KELVIN}ato`, email: 'other@example.com' }))
      .execute();
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'Ana', email: 'ana@example.com' }))
      .execute();
    await expect(migrate(db)).rejects.toThrow(/users 1 \(user_name "kato"\) and 2 \(user_name "\u212aato"\) are both "kato"/);
    expect(await appliedVersions(db)).not.toContain(12);
    // Rolled back: not even the rows that had no twin were rewritten.
    const ana = await db.k.selectFrom('users').select('user_name').where('id', '=', 3).executeTakeFirstOrThrow();
    expect(ana.user_name).toBe('Ana');
  } finally {
    await db.close();
  }
});

/* A document's name says what it is --------------------------------------------------------- */

test.each([
  ['a right-to-left override that shows "…tab.pdf" for a .bat', PDF, 'invoice\u202efdp.bat', 'invoicefdp.bat.pdf', 'application/pdf'],
  ['isolates, marks and zero-width characters', PDF, '\u2067report\u2069\u200e\u200b.pdf', 'report.pdf', 'application/pdf'],
  ['a PNG named as a PDF', PNG_BYTES, 'scan.pdf', 'scan.pdf.png', 'image/png'],
  ['a PDF named as an executable', PDF, 'setup.exe', 'setup.exe.pdf', 'application/pdf'],
  ['dots and spaces Windows drops at the end', PDF, 'minutes.pdf. . .', 'minutes.pdf', 'application/pdf'],
  ['a JPEG extension of a PNG kept apart from a real one', PNG_BYTES, 'photo.jpeg', 'photo.jpeg.png', 'image/png'],
])(`a document name with %s is cleaned and ends in its type's extension (${TEST_ENGINE})`, async (_what, bytes, name, stored, type) => {
  const { app, db } = await createTestApp(UNLIMITED);
  const tokens = await signInEveryone(app, db);
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  const res = await api(app, tokens.owner).upload(`/projects/${id}/documents`, bytes, name);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body).toMatchObject({ name: stored, contentType: type });
  const download = await api(app, tokens.owner).get(`/projects/${id}/documents/${res.body.id}`);
  expect(download.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(stored)}`);
  expect(download.headers['content-disposition']).not.toMatch(/%E2%80%AE|%E2%81%A7/);
});

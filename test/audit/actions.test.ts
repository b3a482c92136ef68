// Every action the site records in the audit log, as a table: the action, how it is triggered
// (the form, the API, a download, the ops command line), and the entry expected. Each row runs on
// a fresh site and looks only at the entries its trigger added.
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect, inject, test } from 'vitest';
import { run as opsCli } from '../../scripts/user.ts';
import type { AuditLog } from '../../server/audit/log.ts';
import { databaseFile, openDatabase, type Db } from '../../server/db/index.ts';
import type { PdfRenderer } from '../../server/pdf/renderer.ts';
import type { AuditRecord } from '../../shared/audit.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { capturingLogger } from '../helpers/log.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

/** Documents are not the point here: a renderer that answers at once. */
const stubRenderer: PdfRenderer = {
  render: async () => Buffer.from('%PDF-1.4\n%%EOF\n'),
  state: () => ({ running: false, waiting: 0, thread: false }),
  close: async () => {},
};

const NEW_PASSWORD = 'a brand new passphrase';
/** supertest's client address as the site sees it (IPv4, or IPv4 mapped into IPv6). */
const LOCAL_IP = expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/);

async function site(options: { logger?: ReturnType<typeof capturingLogger>['logger'] } = {}) {
  const created = await createTestApp(undefined, { pdfRenderer: stubRenderer, ...(options.logger ? { logger: options.logger } : {}) });
  const { app, db } = created;
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Admin' });
  await addUser(db, { userName: 'pat', role: 'CLI', name: 'Pat', lastName: 'Client', email: 'pat@example.com' });
  const cookie = async (identifier: string) => {
    const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(303);
    return String(res.headers['set-cookie']).split(';')[0]!;
  };
  return { app, db, audit: created.audit, close: created.close, cookie, token: (userName: string) => loginToken(app, userName) };
}
type Site = Awaited<ReturnType<typeof site>>;

/** The entries recorded while `trigger` ran, oldest first. */
async function recordedBy(audit: AuditLog, trigger: () => Promise<void>): Promise<AuditRecord[]> {
  const before = (await audit.list({}, { page: 1, pageSize: 1 })).items[0]?.id ?? 0;
  await trigger();
  const page = await audit.list({}, { page: 1, pageSize: 100 });
  return page.items.filter((entry) => entry.id > before).reverse();
}

const bearer = (token: string) => `Bearer ${token}`;

type Row = { action: string; how: string; trigger: (s: Site) => Promise<void>; expected: Partial<AuditRecord> };

const ROWS: Row[] = [
  {
    action: 'sign_in',
    how: 'signing in on the login form',
    trigger: async (s) => void (await s.cookie('pat')),
    expected: { action: 'sign_in', actor: 'pat', target: null, ip: LOCAL_IP, detail: { via: 'form' } },
  },
  {
    action: 'sign_in',
    how: 'POST /api/login',
    trigger: async (s) => void (await s.token('pat')),
    expected: { action: 'sign_in', actor: 'pat', target: null, ip: LOCAL_IP, detail: { via: 'api' } },
  },
  {
    action: 'sign_in_failed',
    how: 'a wrong password on the login form (the identifier as typed)',
    trigger: async (s) => {
      const res = await request(s.app)
        .post('/login')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ identifier: 'Pat', password: 'wrong guess' });
      expect(res.status).toBe(401);
    },
    expected: { action: 'sign_in_failed', actor: null, target: 'Pat', ip: LOCAL_IP, detail: { via: 'form' } },
  },
  {
    action: 'sign_in_failed',
    how: 'an unknown account at POST /api/login',
    trigger: async (s) => {
      const res = await request(s.app).post('/api/login').send({ identifier: 'nobody@example.com', password: 'whatever it is' });
      expect(res.status).toBe(401);
    },
    expected: { action: 'sign_in_failed', actor: null, target: 'nobody@example.com', ip: LOCAL_IP, detail: { via: 'api' } },
  },
  {
    action: 'sign_out',
    how: 'POST /logout',
    trigger: async (s) => {
      const cookie = await s.cookie('pat');
      expect((await request(s.app).post('/en/logout').set('Origin', ORIGIN).set('Cookie', cookie)).status).toBe(303);
    },
    expected: { action: 'sign_out', actor: 'pat', target: null, ip: LOCAL_IP, detail: {} },
  },
  {
    action: 'password_changed',
    how: 'the change-password form',
    trigger: async (s) => {
      const cookie = await s.cookie('pat');
      const res = await request(s.app)
        .post('/changePassword')
        .set('Origin', ORIGIN)
        .set('Cookie', cookie)
        .type('form')
        .send({ currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
      expect(res.status).toBe(303);
    },
    expected: { action: 'password_changed', actor: 'pat', target: null, ip: LOCAL_IP, detail: { via: 'form' } },
  },
  {
    action: 'password_changed',
    how: 'POST /api/me/password',
    trigger: async (s) => {
      const res = await request(s.app)
        .post('/api/me/password')
        .set('Authorization', bearer(await s.token('pat')))
        .send({ currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD });
      expect(res.status).toBe(200);
    },
    expected: { action: 'password_changed', actor: 'pat', target: null, ip: LOCAL_IP, detail: { via: 'api' } },
  },
  {
    action: 'user_created',
    how: 'an admin creating a user (POST /api/admin/users)',
    trigger: async (s) => {
      const res = await request(s.app)
        .post('/api/admin/users')
        .set('Authorization', bearer(await s.token('ada')))
        .send({ userName: 'newbie', name: 'New', lastName: 'Bie', role: 'ORG' });
      expect(res.status).toBe(201);
    },
    expected: { action: 'user_created', actor: 'ada', target: 'newbie', ip: LOCAL_IP, detail: { role: 'ORG', passwordGenerated: true } },
  },
  {
    action: 'role_changed',
    how: 'an admin changing a role (PATCH /api/admin/users/{userName})',
    trigger: async (s) => {
      const res = await request(s.app)
        .patch('/api/admin/users/PAT')
        .set('Authorization', bearer(await s.token('ada')))
        .send({ role: 'ORG' });
      expect(res.status).toBe(200);
    },
    expected: { action: 'role_changed', actor: 'ada', target: 'pat', ip: LOCAL_IP, detail: { from: 'CLI', to: 'ORG' } },
  },
  {
    action: 'scope_changed',
    how: 'an admin changing scopes (PATCH /api/admin/users/{userName}, docs/decisions/053)',
    trigger: async (s) => {
      const res = await request(s.app)
        .patch('/api/admin/users/pat')
        .set('Authorization', bearer(await s.token('ada')))
        .send({ scope: ['inbox:read', 'reports:read'] });
      expect(res.status).toBe(200);
    },
    // In the order of SCOPES, whatever order they were given in.
    expected: { action: 'scope_changed', actor: 'ada', target: 'pat', ip: LOCAL_IP, detail: { from: '', to: 'reports:read, inbox:read' } },
  },
  {
    action: 'status_changed',
    how: 'an admin disabling a user (their sessions end)',
    trigger: async (s) => {
      await s.cookie('pat');
      const res = await request(s.app)
        .patch('/api/admin/users/pat')
        .set('Authorization', bearer(await s.token('ada')))
        .send({ disabled: true });
      expect(res.status).toBe(200);
    },
    expected: { action: 'status_changed', actor: 'ada', target: 'pat', ip: LOCAL_IP, detail: { status: 'disabled', sessionsEnded: 1 } },
  },
  {
    action: 'status_changed',
    how: 'an admin enabling a user again',
    trigger: async (s) => {
      await s.db.k.updateTable('users').set({ disabled: 1 }).where('user_name', '=', 'pat').execute();
      const res = await request(s.app)
        .patch('/api/admin/users/pat')
        .set('Authorization', bearer(await s.token('ada')))
        .send({ disabled: false });
      expect(res.status).toBe(200);
    },
    expected: { action: 'status_changed', actor: 'ada', target: 'pat', ip: LOCAL_IP, detail: { status: 'enabled' } },
  },
  {
    action: 'password_set',
    how: 'an admin setting a password (POST /api/admin/users/{userName}/password)',
    trigger: async (s) => {
      await s.token('pat');
      await s.token('pat');
      const res = await request(s.app)
        .post('/api/admin/users/pat/password')
        .set('Authorization', bearer(await s.token('ada')))
        .send({});
      expect(res.status).toBe(200);
    },
    expected: { action: 'password_set', actor: 'ada', target: 'pat', ip: LOCAL_IP, detail: { generated: true, sessionsEnded: 2 } },
  },
  {
    action: 'sessions_ended',
    how: 'an admin ending a user’s sessions (DELETE /api/admin/users/{userName}/sessions)',
    trigger: async (s) => {
      await s.cookie('pat');
      await s.token('pat');
      await s.token('pat');
      const res = await request(s.app)
        .delete('/api/admin/users/pat/sessions')
        .set('Authorization', bearer(await s.token('ada')));
      expect(res.status).toBe(200);
    },
    expected: { action: 'sessions_ended', actor: 'ada', target: 'pat', ip: LOCAL_IP, detail: { count: 3 } },
  },
  {
    action: 'report_downloaded',
    how: 'an admin downloading the users report',
    trigger: async (s) => {
      const res = await request(s.app)
        .get('/en/documents/users.pdf')
        .set('Cookie', await s.cookie('ada'));
      expect(res.status).toBe(200);
    },
    expected: { action: 'report_downloaded', actor: 'ada', target: null, ip: LOCAL_IP, detail: { report: 'users', page: 1 } },
  },
  {
    action: 'report_downloaded',
    how: 'an admin downloading the contact-messages report (page and days)',
    trigger: async (s) => {
      const res = await request(s.app)
        .get('/documents/contact-messages.pdf?from=2026-01-01&to=2026-12-31')
        .set('Cookie', await s.cookie('ada'));
      expect(res.status).toBe(200);
    },
    expected: {
      action: 'report_downloaded',
      actor: 'ada',
      target: null,
      detail: { report: 'contact_messages', page: 1, from: '2026-01-01', to: '2026-12-31' },
    },
  },
  {
    action: 'report_downloaded',
    how: 'downloading a project’s report',
    trigger: async (s) => {
      const created = await request(s.app)
        .post('/api/projects')
        .set('Authorization', bearer(await s.token('pat')))
        .send({ title: 'Data platform', description: 'One place for the sales figures.', practice: 'data' });
      expect(created.status).toBe(201);
      const res = await request(s.app)
        .get(`/en/documents/projects/${created.body.id}/report.pdf`)
        .set('Cookie', await s.cookie('ada'));
      expect(res.status).toBe(200);
    },
    expected: { action: 'report_downloaded', actor: 'ada', target: null, detail: { report: 'project', project: expect.any(Number) } },
  },
];

test.each(ROWS)('$action is recorded for $how', async ({ action, trigger, expected }) => {
  const s = await site();
  const entries = await recordedBy(s.audit, () => trigger(s));
  const ofAction = entries.filter((entry) => entry.action === action);
  expect(ofAction.length, JSON.stringify(entries)).toBeGreaterThan(0);
  expect(ofAction.at(-1)).toEqual({ id: expect.any(Number), at: expect.any(String), ip: expect.anything(), ...expected });
  await s.close();
});

/** A database the ops command line opens by itself (DATA_DIR's SQLite, or DATABASE_URL), and a way to read it. */
async function opsDatabase(): Promise<{ dataDir: string; open: () => Promise<Db>; done: () => void }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-audit-'));
  const previous = process.env.DATABASE_URL;
  if (TEST_ENGINE === 'sqlite') {
    delete process.env.DATABASE_URL;
    return {
      dataDir,
      open: () => openDatabase({ file: databaseFile(dataDir) }),
      done: () => {
        if (previous !== undefined) process.env.DATABASE_URL = previous;
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = await createTestDatabase(inject('postgresUrl'));
  process.env.DATABASE_URL = url;
  return {
    dataDir,
    open: () => openDatabase({ url, poolMax: 2 }),
    done: () => {
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const OPS_ROWS: { action: string; how: string; args: string[]; detail: AuditRecord['detail'] }[] = [
  {
    action: 'user_created',
    how: 'npm run user -- add',
    args: ['add', '--userName', 'nora', '--password', 'nora passphrase', '--role', 'CONS', '--name', 'Nora', '--lastName', 'N'],
    detail: { role: 'CONS' },
  },
  {
    action: 'role_changed',
    how: 'npm run user -- set-role',
    args: ['set-role', '--userName', 'olga', '--role', 'ADMIN'],
    detail: { from: 'ORG', to: 'ADMIN' },
  },
  {
    action: 'scope_changed',
    how: 'npm run user -- set-scope',
    args: ['set-scope', '--userName', 'olga', '--scope', 'audit:read'],
    detail: { from: '', to: 'audit:read' },
  },
  {
    action: 'password_set',
    how: 'npm run user -- set-password',
    args: ['set-password', '--userName', 'olga', '--password', 'another passphrase'],
    detail: { generated: false, sessionsEnded: 0 },
  },
  {
    action: 'status_changed',
    how: 'npm run user -- disable',
    args: ['disable', '--userName', 'olga'],
    detail: { status: 'disabled', sessionsEnded: 0 },
  },
];

test.each(OPS_ROWS)("$action is recorded for $how, with 'ops' as the actor", async ({ action, args, detail }) => {
  const ops = await opsDatabase();
  try {
    await opsCli(
      ['add', '--userName', 'olga', '--password', 'olga passphrase', '--role', 'ORG', '--name', 'Olga', '--lastName', 'O'],
      ops.dataDir,
      () => {},
    );
    await opsCli(args, ops.dataDir, () => {});
    const db = await ops.open();
    try {
      const rows = await db.k.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).execute();
      const target = args[args.indexOf('--userName') + 1];
      expect(rows[0]).toMatchObject({ action, actor: 'ops', target, ip: null });
      expect(JSON.parse(rows[0]!.detail ?? '{}')).toEqual(detail);
    } finally {
      await db.close();
    }
  } finally {
    ops.done();
  }
});

test('the password typed at a failed sign-in is never recorded, only the identifier', async () => {
  const s = await site();
  const guess = 'my-secret-guess-123';
  await request(s.app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'pat', password: guess });
  await request(s.app).post('/api/login').send({ identifier: guess, password: guess });
  const rows = await s.db.k.selectFrom('audit_log').selectAll().orderBy('id').execute();
  expect(rows.map((r) => r.target)).toEqual(['pat', guess]);
  expect(JSON.stringify(rows.map(({ target: _t, ...rest }) => rest))).not.toContain(guess);
  await s.close();
});

test('a sign-in refused by the limits (429) is not recorded as a failed sign-in: only real guesses are', async () => {
  const created = await createTestApp({ LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP: '2' }, { pdfRenderer: stubRenderer });
  await addUser(created.db, { userName: 'pat', role: 'CLI' });
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await request(created.app)
      .post('/api/login')
      .send({ identifier: 'pat', password: `wrong ${i}` });
    statuses.push(res.status);
  }
  expect(statuses).toEqual([401, 401, 429, 429]);
  expect((await created.audit.list({ action: 'sign_in_failed' }, { page: 1, pageSize: 10 })).total).toBe(2);
  await created.close();
});

test('an admin saving the role a user already has records no role change', async () => {
  const s = await site();
  const token = await s.token('ada');
  const entries = await recordedBy(s.audit, async () => {
    expect((await request(s.app).patch('/api/admin/users/pat').set('Authorization', bearer(token)).send({ role: 'CLI' })).status).toBe(200);
  });
  expect(entries).toEqual([]);
  await s.close();
});

test('the profile PDF (the user’s own data) is not a report download', async () => {
  const s = await site();
  const cookie = await s.cookie('pat');
  const entries = await recordedBy(s.audit, async () => {
    expect((await request(s.app).get('/documents/my-profile.pdf').set('Cookie', cookie)).status).toBe(200);
  });
  expect(entries).toEqual([]);
  await s.close();
});

test('a failure to record never fails the action: sign-in works without the audit table, and the error is logged', async () => {
  const { logger, lines } = capturingLogger();
  const s = await site({ logger });
  await sql`DROP TABLE audit_log`.execute(s.db.k);
  const res = await request(s.app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'pat', password: DEFAULT_PASSWORD });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/client');
  expect(lines.some((line) => line.includes('audit entry not recorded') && line.includes('"action":"sign_in"'))).toBe(true);
  await s.close();
});

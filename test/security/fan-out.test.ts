// The company fan-out attack (docs/decisions/052), on one built server started as `npm start`
// starts it, on SQLite and on PostgreSQL: a company of 5,000 people who accepted their invitation
// and 3,000 addresses its manager typed and nobody accepted, written straight into the database;
// one message posted in its project. Before the fix the process was held 14.2 s by a company of
// 3,016, and past ~1,927 recipients every e-mail of the notice was lost. Throughout, /healthz is
// asked every 50 ms and must answer every time within HEALTHZ_MAX_MS; in the end every verified
// person's e-mail is in the outbox once (its rows counted: the mail server here greets nobody,
// so the sender sends none meanwhile), and no invitee's.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchServer, type LaunchedServer } from '../../scripts/launch-server.ts';
import type { Db } from '../../server/db/index.ts';
import { hashPassword } from '../../server/users/passwords.ts';
import { scaled } from '../helpers/time-scale.ts';
import { userRow } from '../helpers/users.ts';
import { ENGINE, expectAlive, insertProject, serverDatabase, signInToken } from './built-server.ts';
import { pollHealth, type HealthProbe } from './process-watch.ts';

const PASSWORD = 'fan-out-suite-password';
const VERIFIED = 5_000;
const PENDING = 3_000;
/** Every /healthz while the notice is told answers within this (scaled on a loaded machine). */
const HEALTHZ_MAX_MS = scaled(100);

/** An SMTP server that accepts connections and never greets: the outbox keeps every row it is given. */
async function silentSmtp() {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** Connections the sender opened. */
    connections: () => sockets.length,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

const person = (i: number) => `person${String(i).padStart(5, '0')}`;

/**
 * The company written straight into the tables: its manager, the verified people and the
 * invitees; its project, with an expert; and a small project of another client's, whose message
 * warms the sender up.
 */
async function seed(db: Db): Promise<{ projectId: number; smallProjectId: number }> {
  const passwordHash = await hashPassword(PASSWORD);
  const at = new Date().toISOString();
  const people = [
    userRow({ user_name: 'manager', email: 'manager@bigco.example', password_hash: passwordHash }),
    ...Array.from({ length: VERIFIED - 1 + PENDING }, (_, i) =>
      userRow({ user_name: person(i), email: `${person(i)}@bigco.example`, invited_at: i >= VERIFIED - 1 ? at : null }),
    ),
    userRow({ user_name: 'root', role: 'ADMIN', email: 'root@example.com' }),
    userRow({ user_name: 'eva', role: 'CONS', email: 'eva@example.com' }),
    userRow({ user_name: 'small', email: 'small@example.com', password_hash: passwordHash }),
  ];
  for (let i = 0; i < people.length; i += 500)
    await db.k
      .insertInto('users')
      .values(people.slice(i, i + 500))
      .execute();
  const company = await db.k
    .insertInto('companies')
    .values({ name: 'Big Co', kind: 'CLI', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const members = people.filter((p) => p.role === 'CLI' && p.user_name !== 'small');
  for (let i = 0; i < members.length; i += 500) {
    await db.k
      .insertInto('company_members')
      .values(
        members.slice(i, i + 500).map((p) => ({
          user_name: p.user_name,
          company_id: company.id,
          role: p.user_name === 'manager' ? 'manager' : 'member',
          joined_at: at,
        })),
      )
      .execute();
  }
  const projectId = await insertProject(db, { owner: 'manager', ownerName: 'Manager', title: 'Everyone’s project', state: 'active' });
  await db.k
    .insertInto('project_experts')
    .values({ project_id: projectId, user_name: 'eva', name: 'Eva', added_at: at, added_by: 'root' })
    .execute();
  const smallProjectId = await insertProject(db, { owner: 'small', ownerName: 'Small', title: 'A small project', state: 'active' });
  return { projectId, smallProjectId };
}

let server: LaunchedServer;
let smtp: Awaited<ReturnType<typeof silentSmtp>>;
let db: Db;
let dataDir: string;
let projectId: number;
let smallProjectId: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fan-out-suite-'));
  smtp = await silentSmtp();
  const database = await serverDatabase(dataDir);
  const seeding = await database.open();
  try {
    ({ projectId, smallProjectId } = await seed(seeding));
  } finally {
    await seeding.close();
  }
  server = await launchServer({ dataDir, env: { ...database.env, SMTP_URL: smtp.url }, startTimeoutMs: scaled(30_000) });
  db = await database.open();
}, scaled(120_000));

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, scaled(30_000));

async function countOf(query: Promise<{ n: number | string | bigint }>): Promise<number> {
  return Number((await query).n);
}

test(
  `a message in a company of ${VERIFIED} people and ${PENDING} invitees: /healthz answers within ${HEALTHZ_MAX_MS} ms throughout, every verified person's e-mail is queued once, no invitee's (${ENGINE})`,
  async () => {
    const token = await signInToken(server.url, 'manager', PASSWORD);
    // The outbox's sender loads nodemailer with its first e-mail (decision 007: not at start), a
    // stretch of 60–350 ms measured here that is not the fan-out's: a message of a small project
    // makes it happen first, seen as its connection to the mail server (which then never greets).
    const small = await fetch(`${server.url}/api/projects/${smallProjectId}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await signInToken(server.url, 'small', PASSWORD)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: 'Warming the sender up' }),
    });
    expect(small.status).toBe(201);
    await expect.poll(() => smtp.connections(), { timeout: scaled(10_000) }).toBeGreaterThan(0);
    const probes: HealthProbe[] = [];
    const stopHealth = pollHealth(server.url, (probe) => probes.push(probe));
    // The poller's first request opens its connection (hundreds of ms on a busy machine): what is judged starts after it.
    await expect.poll(() => probes.length, { timeout: scaled(10_000) }).toBeGreaterThan(0);
    const from = Date.now();
    const started = performance.now();
    const posted = await fetch(`${server.url}/api/projects/${projectId}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: 'A word for all five thousand of you' }),
    });
    const answeredMs = performance.now() - started;
    expect(posted.status).toBe(201);
    // Everyone but the author who may see the project: 4,999 colleagues, the admin, the expert.
    const expected = VERIFIED - 1 + 2;
    const queued = () =>
      countOf(
        db.k
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('kind', '=', 'message_posted')
          .where('ref', '=', `project:${projectId}`)
          .executeTakeFirstOrThrow(),
      );
    await expect.poll(queued, { timeout: scaled(45_000), interval: 250 }).toBe(expected);
    await expect
      .poll(async () => (await db.k.selectFrom('notice_fanouts').select('id').execute()).length, { timeout: scaled(15_000), interval: 250 })
      .toBe(0);
    const toldMs = performance.now() - started;
    await stopHealth();
    const during = probes.filter((probe) => probe.at >= from);
    const slowest = Math.max(...during.map((probe) => probe.ms));
    console.log(
      `[fan-out ${ENGINE}] answered in ${Math.round(answeredMs)} ms, ${expected} told in ${Math.round(toldMs)} ms; ` +
        `/healthz: ${during.length} probes meanwhile, slowest ${Math.round(slowest)} ms`,
    );
    console.log('PROBES', JSON.stringify(during.map((p) => [p.at - from, Math.round(p.ms)])));
    expectAlive(server);
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((probe) => !probe.ok)).toEqual([]);
    expect(slowest).toBeLessThanOrEqual(HEALTHZ_MAX_MS);

    const recipients = await db.k
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('kind', '=', 'message_posted')
      .where('ref', '=', `project:${projectId}`)
      .execute();
    const addresses = new Set(recipients.map((r) => r.recipient));
    expect(addresses.size).toBe(expected);
    for (let i = 0; i < VERIFIED - 1; i++) expect(addresses.has(`${person(i)}@bigco.example`), person(i)).toBe(true);
    expect(addresses.has('root@example.com') && addresses.has('eva@example.com')).toBe(true);
    const invitees = [...addresses].filter((address) => Number(/^person(\d+)@/.exec(address)?.[1] ?? -1) >= VERIFIED - 1);
    expect(invitees).toEqual([]);
    const notifiedInvitees = await countOf(
      db.k
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_name', '>=', person(VERIFIED - 1))
        .where('user_name', 'like', 'person%')
        .executeTakeFirstOrThrow(),
    );
    expect(notifiedInvitees).toBe(0);
  },
  scaled(90_000),
);

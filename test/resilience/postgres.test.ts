// Past one machine: two site processes on one PostgreSQL behave as one site. A session made on
// one works on the other, a logout on one refuses the copied cookie on the other within a
// second, a rate limit counts across both, a contact message accepted by one is in the other's
// inbox (also after a kill -9 right after the answer), and a database that goes away gives 503
// and a failing /readyz, never a crash, until it is back.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, startPostgres, type PostgresCluster } from '../helpers/postgres.ts';
import { startServer, type RunningServer } from './server.ts';
import { scaled } from '../helpers/time-scale.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PASSWORD = 'correct horse battery';

let cluster: PostgresCluster;
let databaseUrl = '';
let a: RunningServer;
let b: RunningServer;

function cli(args: string[]): string {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'user.ts'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`user ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

async function signIn(server: RunningServer, identifier: string, password = PASSWORD): Promise<Response> {
  return fetch(`${server.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
    body: new URLSearchParams({ identifier, password }),
  });
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie.split(';')[0]!;
}

const get = (server: RunningServer, path: string, cookie = '') =>
  fetch(`${server.url}${path}`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });

beforeAll(async () => {
  cluster = await startPostgres();
  databaseUrl = await createTestDatabase(cluster.url);
  cli(['add', '--userName', 'carla', '--password', PASSWORD, '--role', 'CLI', '--name', 'Carla', '--lastName', 'C']);
  cli(['add', '--userName', 'root', '--password', PASSWORD, '--role', 'ADMIN', '--name', 'Rosa', '--lastName', 'A']);
  // Both start at once: the migrations take turns under the advisory lock.
  [a, b] = await Promise.all([startServer({ DATABASE_URL: databaseUrl }), startServer({ DATABASE_URL: databaseUrl })]);
}, scaled(90_000));

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  cluster?.stop();
}, scaled(30_000));

test('a session made on one instance works on the other, and a logout on one refuses the copied cookie on the other within a second', async () => {
  const cookie = sessionCookie(await signIn(a, 'carla'));
  expect((await get(b, '/en/client', cookie)).status).toBe(200);
  const logout = await fetch(`${a.url}/en/logout`, { method: 'POST', redirect: 'manual', headers: { Cookie: cookie, Origin: a.url } });
  expect(logout.status).toBe(303);
  // Each process keeps what it read of a session for at most a second.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const after = await get(b, '/en/client', cookie);
  expect(after.status).toBe(302);
  expect(after.headers.get('location')).toBe('/en/login');
});

test('a disable made with the ops CLI ends the user’s sessions on every instance', async () => {
  cli(['add', '--userName', 'dora', '--password', PASSWORD, '--role', 'CLI', '--name', 'Dora', '--lastName', 'D']);
  const cookie = sessionCookie(await signIn(b, 'dora'));
  expect((await get(a, '/client', cookie)).status).toBe(200);
  cli(['disable', '--userName', 'dora']);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect((await get(a, '/client', cookie)).status).toBe(302);
  expect((await get(b, '/client', cookie)).status).toBe(302);
});

test('a login limit counts across both instances', async () => {
  cli(['add', '--userName', 'lim', '--password', PASSWORD, '--role', 'CLI', '--name', 'L', '--lastName', 'L']);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await signIn(i % 2 === 0 ? a : b, 'lim', 'wrong password here')).status);
  // Five failures from this address on this identifier, then 429 — whichever instance answers.
  expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
  expect(statuses[5]).toBe(429);
});

test('a contact message accepted by one instance is in the other’s inbox, also when the first is killed right after its answer', async () => {
  const page = await (await get(a, '/en/Contact')).text();
  const formToken = /name="formToken" value="([^"]+)"/.exec(page)![1]!;
  await new Promise((resolve) => setTimeout(resolve, 3_100)); // the form refuses answers under 3 s
  const sent = await fetch(`${a.url}/en/Contact`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: a.url },
    body: new URLSearchParams({
      name: 'Kai',
      email: 'kai@example.com',
      subject: 'Sent to one, read on the other',
      message: 'Committed before the answer.',
      consent: 'yes',
      formToken,
    }),
  });
  expect(sent.status).toBe(303);
  a.process.kill('SIGKILL');
  const admin = sessionCookie(await signIn(b, 'root'));
  const inbox = await (await fetch(`${b.url}/api/admin/messages`, { headers: { Cookie: admin } })).json();
  expect(inbox.items.map((m: { subject: string }) => m.subject)).toContain('Sent to one, read on the other');
});

test('without its database the site answers 503 and /readyz fails, never crashes, and recovers when the database is back', async () => {
  const cookie = sessionCookie(await signIn(b, 'carla'));
  expect((await get(b, '/readyz')).status).toBe(200);
  cluster.pause();
  try {
    expect((await get(b, '/readyz')).status).toBe(503);
    const page = await get(b, '/en/client', cookie);
    expect(page.status).toBe(503);
    expect((await get(b, '/healthz')).status).toBe(200);
    expect((await get(b, '/en/blog')).status).toBe(200); // pages that need no database still answer
  } finally {
    cluster.resume();
  }
  await expect.poll(async () => (await get(b, '/readyz')).status, { timeout: scaled(15_000) }).toBe(200);
  expect((await get(b, '/en/client', cookie)).status).toBe(200);
  expect(b.process.exitCode).toBeNull();
});

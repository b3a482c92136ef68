import { afterAll, expect, test } from 'vitest';
import { addUser, startServer } from './server.ts';

const server = await startServer({ WEB_CONCURRENCY: '2', LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP: '4' }, (dataDir) =>
  addUser(dataDir, ['--userName', 'wanda', '--password', 'correct horse 1', '--role', 'CLI', '--name', 'Wanda', '--lastName', 'W']),
);
afterAll(() => server.stop());

/** A new connection per request, so that the cluster can hand each to either worker. */
function get(path: string, headers: Record<string, string> = {}) {
  return fetch(server.url + path, { headers: { Connection: 'close', ...headers }, redirect: 'manual' });
}

async function workersSeen(): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < 40 && seen.size < 2; i++) seen.add(((await (await get('/healthz')).json()) as { worker: number }).worker);
  return seen;
}

test('WEB_CONCURRENCY=2 runs two workers on the same port', async () => {
  expect((await workersSeen()).size).toBe(2);
});

test('a session made by one worker is valid on every worker', async () => {
  const login = await fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded', Connection: 'close' },
    body: 'identifier=wanda&password=correct+horse+1',
    redirect: 'manual',
  });
  expect(login.status).toBe(303);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('auth._token.local='))!
    .split(';')[0]!;
  const statuses = new Set<number>();
  const workers = new Set<number>();
  for (let i = 0; i < 20; i++) {
    const res = await get('/client', { Cookie: cookie });
    statuses.add(res.status);
    workers.add(Number(res.headers.get('x-worker')));
  }
  expect([...statuses]).toEqual([200]);
  expect(workers.size).toBe(2);
});

test('rate-limit counters are shared by the workers (kept in the database)', async () => {
  const attempt = () =>
    fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Connection: 'close' },
      body: JSON.stringify({ identifier: 'wanda', password: 'wrong password' }),
    });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await attempt()).status);
  // 4 failures allowed on one identifier from one address, whichever worker counted them.
  expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
  expect(statuses.slice(4)).toEqual([429, 429]);
});

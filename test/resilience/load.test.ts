import autocannon from 'autocannon';
import { request as httpRequest } from 'node:http';
import { expect, test } from 'vitest';
import { addUser, startServer } from './server.ts';

const SECONDS = Number(process.env.RESILIENCE_SECONDS ?? 30);
const USER = ['--userName', 'lola', '--password', 'correct horse 1', '--role', 'CLI', '--name', 'Lola', '--lastName', 'L'];

async function contactToken(url: string): Promise<string> {
  const html = await (await fetch(`${url}/Contact`)).text();
  const token = /name="formToken" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no form token on /Contact');
  return token;
}

test(`a ${SECONDS} s mixed load (pages, login, contact) at 50 connections: 0 errors and 0 5xx`, async () => {
  const server = await startServer({ CONTACT_MAX_PER_IP: '1000000', LOGIN_MAX_FAILURES_PER_IP: '1000000' }, (dir) => addUser(dir, USER));
  try {
    const token = await contactToken(server.url);
    await new Promise((r) => setTimeout(r, 3200)); // the contact form's minimum fill time
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url };
    const contact = new URLSearchParams({
      formToken: token,
      name: 'Load',
      email: 'load@example.com',
      subject: 'Load test',
      message: 'A message sent under load.',
      consent: 'yes',
    });
    const result = await autocannon({
      url: server.url,
      connections: 50,
      duration: SECONDS,
      requests: [
        { method: 'GET', path: '/es' },
        { method: 'GET', path: '/en/blog' },
        { method: 'GET', path: '/en/blog/how-to-brief-an-expert' },
        { method: 'GET', path: '/en/login' },
        { method: 'GET', path: '/_data?path=%2Fen%2Fprivacy' },
        { method: 'POST', path: '/en/login', headers: form, body: 'identifier=lola&password=correct+horse+1' },
        { method: 'GET', path: '/en/Contact' },
        { method: 'POST', path: '/en/Contact', headers: form, body: contact.toString() },
      ],
    });
    console.info(
      `mixed load: ${result.requests.total} requests, ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
    );
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result['5xx']).toBe(0);
    expect(result.requests.total).toBeGreaterThan(SECONDS * 5);
  } finally {
    await server.stop();
  }
});

/** One request on its own connection: its status, or the network error it met. */
function hit(port: number, path: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error) => resolve({ error: error.message }));
    });
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    req.end();
  });
}

test('SIGTERM in the middle of a load: no in-flight request fails, then the process exits 0', async () => {
  const server = await startServer({ SHUTDOWN_DRAIN_SECONDS: '1' }, (dir) => addUser(dir, USER));
  const paths = ['/es', '/en/blog', '/en/blog/how-to-brief-an-expert', '/en/login', '/en/Contact'];
  const issued: Promise<{ status: number } | { error: string }>[] = [];
  let signalled = false;
  // 50 clients in a loop; like a load balancer, they send nothing new once the signal is given.
  const clients = Array.from({ length: 50 }, async (_, i) => {
    for (let n = i; !signalled; n++) {
      const pending = hit(server.port, paths[n % paths.length]!);
      issued.push(pending);
      await pending;
    }
  });
  await new Promise((r) => setTimeout(r, 3000));
  signalled = true;
  const inFlight = issued.length;
  server.process.kill('SIGTERM');
  const exitCode = await new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
  await Promise.all(clients);
  const outcomes = await Promise.all(issued);
  const failed = outcomes.filter((o) => 'error' in o || o.status >= 500);
  expect(inFlight).toBeGreaterThan(50);
  expect(failed).toEqual([]);
  expect(exitCode).toBe(0);
  await server.stop();
});

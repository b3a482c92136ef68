// 1,000 live streams (GET /live, docs/decisions/042) held open on the built server as `npm start` runs it
// (128 MB heap): memory stays bounded, the site keeps answering, a notification still reaches
// every stream of its user, and a shutdown ends them all at once. The RSS figure is printed for
// docs/operating.md ("Live updates behind a proxy").
import { connect, type Socket } from 'node:net';
import { expect, test } from 'vitest';
import { rssOf } from '../security/process-watch.ts';
import { signInCookie, signInToken } from '../security/built-server.ts';
import { addUser, startServer } from './server.ts';
import { scaled } from '../helpers/time-scale.ts';

const STREAMS = 1000;
const PASSWORD = 'correct horse 1';
const person = (userName: string, role: string) => [
  '--userName',
  userName,
  '--password',
  PASSWORD,
  '--role',
  role,
  '--name',
  userName,
  '--lastName',
  'L',
];

/** A raw stream: the socket, and what it has received. */
type Raw = { socket: Socket; received: () => string; closed: Promise<void> };

function openRaw(port: number, cookie: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      // Only the head and what came lately matter: the test never keeps a stream's whole history.
      text = (text + chunk).slice(-4096);
    });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(`GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`);
      resolve({ socket, received: () => text, closed });
    });
    socket.once('error', reject);
  });
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadlineMs = scaled(timeoutMs);
  const deadline = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

test(`${STREAMS} open live streams: bounded memory, the site answers, a notification reaches them all, shutdown ends them`, async () => {
  const server = await startServer(
    { LIVE_STREAMS_PER_USER: String(STREAMS), LIVE_STREAMS_MAX: String(STREAMS), HTTP_MAX_CONNECTIONS: String(STREAMS * 2) },
    (dir) => {
      addUser(dir, person('stream-client', 'CLI'));
      addUser(dir, person('stream-admin', 'ADMIN'));
    },
  );
  const streams: Raw[] = [];
  try {
    const cookie = await signInCookie(server.url, 'stream-client', PASSWORD);
    // Warm: a page and one stream, so that the baseline is the server at work, not at rest.
    await (await fetch(`${server.url}/en/client`, { headers: { Cookie: cookie } })).text();
    const warm = await openRaw(server.port, cookie);
    await until(() => warm.received().includes('event: unread'), 5000, 'the first stream');
    warm.socket.destroy();
    const before = rssOf(server.process.pid!).rss;

    for (let i = 0; i < STREAMS; i += 100) {
      streams.push(...(await Promise.all(Array.from({ length: 100 }, () => openRaw(server.port, cookie)))));
    }
    await until(() => streams.every((s) => s.received().includes('event: unread')), 30_000, 'every stream opened');
    const held = rssOf(server.process.pid!).rss;
    const started = Date.now();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);

    // A brief by the client notifies the admin; a message by the admin notifies the client: every stream hears it.
    const client = await signInToken(server.url, 'stream-client', PASSWORD);
    const admin = await signInToken(server.url, 'stream-admin', PASSWORD);
    const api = (token: string, path: string, body: object) =>
      fetch(`${server.url}/api${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const brief = await api(client, '/projects', { title: 'Streams', description: 'A project for the streams test.', practice: 'data' });
    const { id } = (await brief.json()) as { id: number };
    expect((await api(admin, `/projects/${id}/messages`, { body: 'To every tab' })).status).toBe(201);
    await until(() => streams.every((s) => s.received().includes('event: notification')), 20_000, 'the notification on every stream');
    const peak = Math.max(held, rssOf(server.process.pid!).rss);
    console.info(
      `[live streams] RSS before ${before.toFixed(1)} MiB, with ${STREAMS} streams ${held.toFixed(1)} MiB (+${(held - before).toFixed(1)}), after a notification to all ${peak.toFixed(1)} MiB`,
    );
    expect(held - before).toBeLessThan(64);
    expect(peak).toBeLessThan(220);

    // Shutdown: every stream ends at once (their browsers reconnect elsewhere).
    const stopping = server.stop();
    await until(() => streams.every((s) => s.socket.destroyed || s.socket.readableEnded), 10_000, 'every stream ended on shutdown');
    expect(await stopping).toBe(0);
  } finally {
    for (const stream of streams) stream.socket.destroy();
    await server.stop().catch(() => undefined);
  }
});

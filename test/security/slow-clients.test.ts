// Finding 11 (low): slow clients were held for as long as they liked. Written as the attacks:
// half a header and then silence (slowloris), a body trickled in, and more connections than
// the server takes — against the built server as production runs it.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../resilience/server.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    HTTP_HEADERS_TIMEOUT_SECONDS: '2',
    HTTP_REQUEST_TIMEOUT_SECONDS: '3',
    HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
    HTTP_MAX_CONNECTIONS: '4',
  });
});

afterAll(async () => {
  await server?.stop();
});

/** Opens a raw connection and writes `text`; resolves once connected. */
function open(text: string): Promise<{ socket: Socket; closed: Promise<{ afterMs: number; answer: string }> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    const started = Date.now();
    const closed = new Promise<{ afterMs: number; answer: string }>((done) => {
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('close', () => done({ afterMs: Date.now() - started, answer }));
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(text);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

test('a client that sends half a header and then nothing is dropped after the headers timeout', async () => {
  const { closed } = await open('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowloris\r\n');
  const { afterMs, answer } = await closed;
  // 2 s headers timeout, checked every second: dropped within ~3 s, never held for a minute.
  expect(afterMs).toBeLessThan(5_000);
  expect(answer).toMatch(/^HTTP\/1\.1 408 |^$/);
});

test('a client that sends its headers one byte at a time is dropped too (the timeout is for the whole header block)', async () => {
  const { socket, closed } = await open('G');
  const header = 'ET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ' + 'a'.repeat(200) + '\r\n\r\n';
  let i = 0;
  const drip = setInterval(() => {
    if (i < header.length && !socket.destroyed) socket.write(header[i++]!);
  }, 100);
  try {
    const { afterMs } = await closed;
    expect(afterMs).toBeLessThan(5_000);
    expect(i).toBeLessThan(header.length);
  } finally {
    clearInterval(drip);
  }
});

test('a client that trickles its body is dropped after the request timeout', async () => {
  const { socket, closed } = await open(
    'POST /en/Contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nname=',
  );
  const drip = setInterval(() => (socket.destroyed ? undefined : socket.write('a')), 200);
  try {
    const { afterMs } = await closed;
    expect(afterMs).toBeLessThan(6_000);
  } finally {
    clearInterval(drip);
  }
});

test('connections beyond HTTP_MAX_CONNECTIONS are refused, and the site answers again once the holders are dropped', async () => {
  const holders = await Promise.all(Array.from({ length: 4 }, () => open('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')));
  const extra = await open('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const refused = await extra.closed;
  expect(refused.answer).toBe('');
  expect(refused.afterMs).toBeLessThan(1_000);
  await Promise.all(holders.map((h) => h.closed));
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});

test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
  const { closed } = await open('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const { afterMs, answer } = await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(afterMs).toBeLessThan(4_000);
});

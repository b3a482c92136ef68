// A fake Strapi for the tests: node:http on 127.0.0.1, port 0, closed when the test ends.
// It records what it received (method, URL, headers, body) so tests can assert on it.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { onTestFinished } from 'vitest';
import type { Logger } from '../../server/logger.ts';

export type Received = { method: string; url: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };

export type FakeHandler = (req: Received, res: ServerResponse) => unknown;

export type FakeStrapi = {
  url: string;
  received: Received[];
  /** Requests other than the login. */
  reads(): Received[];
  logins(): Received[];
  /** Waits ms, unless the server is closed first (so no test waits for a late answer). */
  delay(ms: number): Promise<void>;
};

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}

export function sendJson(res: ServerResponse, status: number, value: unknown) {
  if (res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

export async function startFakeStrapi(handler: FakeHandler): Promise<FakeStrapi> {
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      received.push(seen);
      Promise.resolve(handler(seen, res)).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    reads: () => received.filter((r) => r.path !== '/api/auth/local'),
    logins: () => received.filter((r) => r.path === '/api/auth/local'),
    delay: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
  };
}

/** A URL on which nothing listens: a port the system gave us and that we closed again. */
export async function unusedUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export type LogLine = { level: number; msg: string; [key: string]: unknown };

/** A real pino logger whose lines the test can read (no redaction: secrets must not get there). */
export function captureLogger(): { logger: Logger; lines: LogLine[]; warnings: () => LogLine[]; text: () => string } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines, warnings: () => lines.filter((line) => line.level === 40), text: () => JSON.stringify(lines) };
}

// The server's logs: structured, with no secrets or tokens in them.
import { expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { CENSORED, censorSecrets, createLogger, MAX_PENDING_LOG_BYTES } from '../server/base/logger.ts';
import { capturingLogger } from './helpers/log.ts';

function capture() {
  const { logger, lines } = capturingLogger();
  return { logger, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

test('a value under a password, token, jwt, secret, cookie or authorization key is redacted at any depth', () => {
  const logged = censorSecrets({
    password: 'p1',
    body: { newPassword: 'p2', currentPassword: 'p3', identifier: 'ana' },
    upstream: { headers: { Authorization: 'Bearer t1', cookie: 'c1', 'set-cookie': ['c2'], accept: 'text/html' } },
    answers: [{ jwt: 'j1' }, { token: 't2', ok: true }],
    config: { SESSION_SECRET: 's1', apiToken: 't3' },
  });
  expect(logged).toEqual({
    password: CENSORED,
    body: { newPassword: CENSORED, currentPassword: CENSORED, identifier: 'ana' },
    upstream: { headers: { Authorization: CENSORED, cookie: CENSORED, 'set-cookie': CENSORED, accept: 'text/html' } },
    answers: [{ jwt: CENSORED }, { token: CENSORED, ok: true }],
    config: { SESSION_SECRET: CENSORED, apiToken: CENSORED },
  });
});

test('redaction never changes the object that was logged', () => {
  const body = { password: 'p1', userName: 'ana' };
  censorSecrets({ body });
  expect(body).toEqual({ password: 'p1', userName: 'ana' });
});

test('a line with nothing to hide is logged as it is, without a copy', () => {
  const line = { reqId: 'a1', method: 'GET', path: '/en/blog', status: 200, ms: 1.5, tags: ['x'], nested: { userName: 'ana' } };
  expect(censorSecrets(line)).toBe(line);
});

test('values nested deeper than the redaction looks are dropped, not logged', () => {
  let deep: Record<string, unknown> = { token: 't' };
  for (let i = 0; i < 12; i++) deep = { deeper: deep };
  expect(JSON.stringify(censorSecrets(deep))).not.toContain('"t"');
});

test('an error is logged with its type, message, stack and properties, its secrets redacted', () => {
  const { logger, lines } = capture();
  const error = Object.assign(new TypeError('upstream refused', { cause: new Error('socket hang up') }), {
    request: { headers: { authorization: 'Bearer secret-token', accept: 'application/json' } },
  });
  logger.error({ err: error, path: '/api/me' }, 'request failed');
  logger.error(new RangeError('direct'));
  const [first, second] = lines();
  expect(first).toMatchObject({
    msg: 'request failed',
    path: '/api/me',
    err: {
      type: 'TypeError',
      message: 'upstream refused: socket hang up',
      request: { headers: { authorization: CENSORED, accept: 'application/json' } },
    },
  });
  expect(String((first!.err as { stack: string }).stack)).toContain('TypeError: upstream refused');
  expect(JSON.stringify(first)).not.toContain('secret-token');
  expect(second).toMatchObject({ msg: 'direct', err: { type: 'RangeError', message: 'direct' } });
});

test('the request line is one JSON object with the fields given', () => {
  const { logger, lines } = capture();
  logger.info({ reqId: 'r1', method: 'GET', path: '/es', status: 200, ms: 0.4 }, 'request');
  expect(lines()).toEqual([
    expect.objectContaining({ level: 30, reqId: 'r1', method: 'GET', path: '/es', status: 200, ms: 0.4, msg: 'request' }),
  ]);
});

test('the server logs to stdout asynchronously, and drops lines rather than hold more than MAX_PENDING_LOG_BYTES when stdout is not read', () => {
  const logger = createLogger('info');
  const stream = (logger as unknown as Record<symbol, { fd?: number; sync?: boolean; maxLength?: number }>)[pino.symbols.streamSym];
  expect(stream).toMatchObject({ fd: 1, sync: false, maxLength: MAX_PENDING_LOG_BYTES });
  expect(MAX_PENDING_LOG_BYTES).toBeLessThanOrEqual(16 * 1024 * 1024);
});

test('an error from another realm (a vm context) is logged with its message and stack, its secrets redacted', () => {
  const { logger, lines } = capture();
  const foreign = runInNewContext('Object.assign(new TypeError("from a vm"), { token: "vm-secret" })') as unknown;
  logger.error({ err: foreign }, 'failed');
  const [line] = lines();
  expect(line).toMatchObject({ err: { type: 'TypeError', message: 'from a vm', token: CENSORED } });
  expect(String((line!.err as { stack: string }).stack)).toContain('TypeError: from a vm');
});

test('an object that says how it is written (toJSON) is censored as written', () => {
  const upstream = { toJSON: () => ({ status: 502, headers: { authorization: 'Bearer t' } }) };
  expect(censorSecrets({ upstream })).toEqual({ upstream: { status: 502, headers: { authorization: CENSORED } } });
  const broken = {
    toJSON: () => {
      throw new Error('no');
    },
  };
  expect(censorSecrets({ broken })).toEqual({ broken: CENSORED });
});

test('when nobody reads stdout, log lines are dropped instead of piling up in memory', async () => {
  // A child process logs 40 MB of lines into a pipe that this test never reads.
  const script = `
    import { pino } from 'pino';
    import { createLogger } from ${JSON.stringify(new URL('../server/base/logger.ts', import.meta.url).href)};
    const logger = createLogger('info');
    let dropped = 0;
    logger[pino.symbols.streamSym].on('drop', () => dropped++);
    const filler = 'x'.repeat(1000);
    for (let i = 0; i < 40_000; i++) logger.info({ i, filler }, 'line');
    process.stderr.write(JSON.stringify({ dropped, heapMb: process.memoryUsage().heapUsed / 1048576 }) + '\\n');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pause();
  let stderr = '';
  child.stderr.setEncoding('utf8');
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('\n')) resolve();
    }),
  );
  // Its exit would wait to flush into the unread pipe: this test only needed the report.
  child.kill('SIGKILL');
  child.stdout.destroy();
  const report = JSON.parse(stderr) as { dropped: number; heapMb: number };
  expect(report.dropped).toBeGreaterThan(0);
  expect(report.heapMb).toBeLessThan(40);
});

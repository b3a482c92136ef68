// The server's logs (issue 7: structured logs with no secrets or tokens in them).
import { expect, test } from 'vitest';
import { pino } from 'pino';
import { CENSORED, censorSecrets, createLogger } from '../server/logger.ts';
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

test('the server logs to stdout asynchronously: a slow reader of its output never stalls a request', () => {
  const logger = createLogger('info');
  const stream = (logger as unknown as Record<symbol, { fd?: number; sync?: boolean }>)[pino.symbols.streamSym];
  expect(stream).toMatchObject({ fd: 1, sync: false });
});

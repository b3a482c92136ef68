// The data export's deadline (docs/decisions/056): a client that reads, but too
// slowly to be done within EXPORT_DEADLINE_SECONDS, has its export ended and frees its slot, one
// of the process's few. Time is the test's clock: each look at it is five seconds later, as for
// a client that takes five seconds per chunk; nothing waits for real seconds.
import express from 'express';
import { once } from 'node:events';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import type { Session } from '../../server/auth/session-cookie.ts';
import { createLogger } from '../../server/base/logger.ts';
import { loadConfig } from '../../server/base/config.ts';
import { accountDataDownload } from '../../server/my-account/download.ts';
import { findUser, sessionUserOf } from '../../server/users/users.ts';
import { scaled } from '../helpers/time-scale.ts';
import { createTestApp } from '../helpers/app.ts';
import { activeProject, PEOPLE, signInEveryone, UNLIMITED } from '../projects/fixtures.ts';
import { manyMessages } from './helpers.ts';

const DEADLINE_MS = 60_000;

/** A clock that is `stepMs` later at each look. */
function slowClock(stepMs: number) {
  let looks = 0;
  return () => looks++ * stepMs;
}

/** The export's handler alone, its user given by the X-User header, with the test's clock. */
async function exportServer(clock: () => number) {
  const { db, app } = await createTestApp(UNLIMITED);
  const tokens = await signInEveryone(app, db);
  const id = await activeProject(app, tokens);
  // The owner's export is ~2 MB (about thirty chunks); the expert's a few kB.
  await manyMessages(db, id, 10_000);
  const sessions = new Map<string, Session>();
  for (const person of [PEOPLE.owner, PEOPLE.expert]) {
    const user = sessionUserOf((await findUser(db, person.userName))!);
    sessions.set(person.userName, { id: `session-${person.userName}`, token: 'unused', user, exp: Math.floor(Date.now() / 1000) + 3600 });
  }
  const download = accountDataDownload({
    db,
    builtIn: true,
    siteName: 'Test',
    logger: createLogger('silent'),
    maxConcurrent: 1,
    // Long enough never to be what ends a download here.
    stallMs: scaled(60_000),
    deadlineMs: DEADLINE_MS,
    clock,
  });
  const mini = express();
  mini.get(
    download.paths,
    (req, res, next) => {
      res.locals.session = sessions.get(req.get('X-User') ?? '') ?? null;
      next();
    },
    download.handler,
  );
  const server = mini.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

/** Downloads the export as `userName`: the status, what arrived, and whether the response came whole. */
function fetchExport(port: number, userName: string): Promise<{ status: number; body: string; whole: boolean }> {
  return new Promise((resolve, reject) => {
    get(
      { port, host: '127.0.0.1', path: '/en/documents/my-data.json', headers: { 'X-User': userName, 'Accept-Encoding': 'identity' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body, whole: response.complete }));
        response.on('error', () => resolve({ status: response.statusCode!, body, whole: false }));
      },
    ).on('error', reject);
  });
}

test('an export its client reads too slowly to finish within EXPORT_DEADLINE_SECONDS is ended half-way, and its slot goes to the next user', async () => {
  const { server, port } = await exportServer(slowClock(5_000));
  try {
    const slow = await fetchExport(port, PEOPLE.owner.userName);
    expect(slow.status).toBe(200);
    expect(slow.whole).toBe(false);
    expect(slow.body.length).toBeGreaterThan(0);
    expect(slow.body.length).toBeLessThan(1_000_000);
    expect(() => JSON.parse(slow.body)).toThrow();
    // The process has one export slot: the slow client's was freed when its export was ended.
    await expect.poll(async () => (await fetchExport(port, PEOPLE.expert.userName)).status).toBe(200);
    const next = await fetchExport(port, PEOPLE.expert.userName);
    expect(next.whole).toBe(true);
    expect(JSON.parse(next.body).profile.userName).toBe(PEOPLE.expert.userName);
  } finally {
    server.close();
  }
});

test('an export done within EXPORT_DEADLINE_SECONDS arrives whole, however large', async () => {
  const { server, port } = await exportServer(() => 0);
  try {
    const whole = await fetchExport(port, PEOPLE.owner.userName);
    expect(whole.whole).toBe(true);
    expect(JSON.parse(whole.body).messages).toHaveLength(10_000);
  } finally {
    server.close();
  }
});

test('EXPORT_DEADLINE_SECONDS is 60 by default, and a bad value names the variable', () => {
  expect(loadConfig({}).EXPORT_DEADLINE_SECONDS).toBe(DEADLINE_MS / 1000);
  expect(loadConfig({ EXPORT_DEADLINE_SECONDS: '600' }).EXPORT_DEADLINE_SECONDS).toBe(600);
  expect(() => loadConfig({ EXPORT_DEADLINE_SECONDS: '0' })).toThrow(/EXPORT_DEADLINE_SECONDS/);
});

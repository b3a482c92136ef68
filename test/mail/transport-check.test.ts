// The mail server's check (server/mail/transport-check.ts) against a real SMTP server in the test
// process: verified a moment after start, a refusal is a warning and a degraded /readyz (never a
// stop, never unready), checked again on the injected timer, and ready again once a check passes.
import request from 'supertest';
import { expect, onTestFinished, test } from 'vitest';
import { VERIFY_FIRST_MS, VERIFY_RETRY_MS, type Schedule } from '../../server/mail/transport-check.ts';
import { createTestApp } from '../helpers/app.ts';
import { capturingLogger } from '../helpers/log.ts';
import { startSmtp } from '../helpers/smtp.ts';

/** A timer the test runs by hand: what was scheduled, and after how long. */
function manualTimer() {
  const tasks: { task: () => void; ms: number }[] = [];
  const schedule: Schedule = (task, ms) => {
    const entry = { task, ms };
    tasks.push(entry);
    return () => tasks.splice(tasks.indexOf(entry), 1);
  };
  /** Runs the one task waiting, after checking how long it was meant to wait. */
  const runNext = (ms: number) => {
    expect(tasks.map((t) => t.ms)).toEqual([ms]);
    tasks.shift()!.task();
  };
  return { tasks, schedule, runNext };
}

async function siteWithSmtp(options: { background?: boolean } = {}) {
  const smtp = await startSmtp();
  const timer = manualTimer();
  const { logger, lines } = capturingLogger();
  const site = await createTestApp(
    { SMTP_URL: smtp.url },
    { logger, mail: { background: options.background ?? false, poll: false, verify: { schedule: timer.schedule } } },
  );
  onTestFinished(async () => {
    await site.close();
    await smtp.stop();
  });
  return { smtp, timer, site, lines };
}

test('with SMTP_URL the mail server is verified a moment after start, and /readyz then says "mail": "ok"', async () => {
  const { timer, site } = await siteWithSmtp({ background: true });
  // Before the first check, readiness says nothing of the mail server.
  expect((await request(site.app).get('/readyz')).body).toEqual({ status: 'ready', checks: { database: 'ok' } });
  timer.runNext(VERIFY_FIRST_MS);
  await expect.poll(() => site.mail.transportState()).toBe('ok');
  const ready = await request(site.app).get('/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', mail: 'ok' } });
  // A check that passes asks for no other.
  expect(timer.tasks).toEqual([]);
});

test('a mail server that refuses the check is a logged warning and a degraded /readyz, not a stop; it is checked again and passes once the server answers', async () => {
  const { smtp, timer, site, lines } = await siteWithSmtp();
  smtp.refuseConnections(true);
  expect(await site.mail.verifyTransport()).toBe('failing');
  const degraded = await request(site.app).get('/readyz');
  expect(degraded.status).toBe(200);
  expect(degraded.body).toEqual({ status: 'degraded', checks: { database: 'ok', mail: 'failing' } });
  const warning = lines
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .find((line) => line.msg.includes('did not answer the check'));
  expect(warning?.level).toBe(40);
  expect(warning?.msg).toContain('e-mails wait in the outbox');
  // The site goes on serving meanwhile.
  expect((await request(site.app).get('/en')).status).toBe(200);

  // Still refused at the next check: checked again after the same pause.
  timer.runNext(VERIFY_RETRY_MS);
  await expect.poll(() => timer.tasks.length).toBe(1);
  expect(site.mail.transportState()).toBe('failing');

  smtp.refuseConnections(false);
  timer.runNext(VERIFY_RETRY_MS);
  await expect.poll(() => site.mail.transportState()).toBe('ok');
  expect((await request(site.app).get('/readyz')).body).toEqual({ status: 'ready', checks: { database: 'ok', mail: 'ok' } });
  expect(lines.some((line) => line.includes('the mail server answers again'))).toBe(true);
  expect(timer.tasks).toEqual([]);
});

test('an e-mail the server takes ends a failing check at once, without waiting for the next one', async () => {
  const { smtp, timer, site } = await siteWithSmtp();
  smtp.refuseConnections(true);
  expect(await site.mail.verifyTransport()).toBe('failing');
  smtp.refuseConnections(false);
  await site.mail.sendAccountMail({
    kind: 'password_reset',
    to: 'ana@example.com',
    locale: 'en',
    name: 'Ana',
    userName: 'ana',
    validHours: 1,
    path: '/en/reset-password?token=x',
    ref: 'user:ana',
  });
  await site.mail.flush();
  await smtp.waitFor(1);
  expect(site.mail.transportState()).toBe('ok');
  expect(timer.tasks).toEqual([]);
});

// How e-mails get out: to whom, in which language, through a real SMTP server that may refuse,
// with two senders on one database, across a restart, and without any mail server at all.
import { expect, test } from 'vitest';
import { contactMessages } from '../../server/contact/messages.ts';
import { createLogger } from '../../server/base/logger.ts';
import { createMail, type ProjectNotice } from '../../server/mail/index.ts';
import { mailOutbox } from '../../server/mail/outbox.ts';
import { capturingLogger } from '../helpers/log.ts';
import { reopenableTestDatabase, testConfig, testDatabase } from '../helpers/app.ts';
import { startSmtp } from '../helpers/smtp.ts';
import { addUsers, mailSetup, projectPath } from './setup.ts';

const MINUTE = 60_000;

function notice(fields: Partial<ProjectNotice> = {}): ProjectNotice {
  return {
    kind: 'message_posted',
    project: { id: 7, title: 'Plan de datos' },
    actor: { userName: 'ana', name: 'Ana Actora' },
    recipients: ['rita'],
    excerpt: 'Hola',
    path: projectPath,
    ...fields,
  };
}

/** A clock the test moves. */
function testClock() {
  let at = Date.parse('2026-11-23T10:00:00Z');
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

function newContactMessage(db: Parameters<typeof contactMessages>[0]) {
  return contactMessages(db).add(
    { name: 'Lucía', email: 'lucia@example.com', subject: 'Hola', message: 'Un mensaje de prueba.', locale: 'es', ip: null },
    true,
  );
}

test("the recipient's last-used locale picks the language; a user who never chose one gets Spanish", async () => {
  const { smtp, db, mail } = await mailSetup();
  await addUsers(db, [
    { userName: 'rita', role: 'CLI', locale: 'en' },
    { userName: 'pablo', role: 'CONS' },
  ]);
  await mail.notifyProject(notice({ recipients: ['rita', 'pablo'] }));
  await mail.flush();
  const received = await smtp.waitFor(2);
  const subjectFor = (address: string) => received.find((m) => m.envelope.to.includes(address))?.subject;
  expect(subjectFor('rita@example.com')).toBe('New message in “Plan de datos”');
  expect(subjectFor('pablo@example.com')).toBe('Nuevo mensaje en «Plan de datos»');
  // Each recipient's own link: their role, their language.
  const ritaText = received.find((m) => m.envelope.to.includes('rita@example.com'))?.text;
  expect(ritaText).toContain('https://www.example.test/en/cli/projects/7');
});

test('the actor never gets the e-mail of their own action, even when listed (in any case)', async () => {
  const { smtp, db, mail } = await mailSetup();
  await addUsers(db, [
    { userName: 'ana', role: 'ADMIN' },
    { userName: 'rita', role: 'CLI' },
  ]);
  await mail.notifyProject(notice({ recipients: ['ANA', 'rita', 'Rita'] }));
  await mail.flush();
  await smtp.waitFor(1);
  expect(smtp.messages.map((m) => m.envelope.to)).toEqual([['rita@example.com']]);
});

test('unknown, disabled and address-less recipients are skipped and logged; the others still get theirs', async () => {
  const { logger, lines } = capturingLogger();
  const { smtp, db, mail } = await mailSetup({ logger });
  await addUsers(db, [
    { userName: 'rita', role: 'CLI' },
    { userName: 'nomail', role: 'CLI', email: null },
    { userName: 'gone', role: 'CLI', disabled: true },
  ]);
  await mail.notifyProject(notice({ recipients: ['ghost', 'nomail', 'gone', 'rita'] }));
  await mail.flush();
  await smtp.waitFor(1);
  expect(smtp.messages.map((m) => m.envelope.to)).toEqual([['rita@example.com']]);
  const skipped = lines.map((line) => JSON.parse(line) as { msg: string; userName?: string }).filter((l) => l.msg.includes('skipped'));
  expect(skipped.map((l) => l.userName)).toEqual(['ghost', 'nomail', 'gone']);
});

test('a notice to 2,500 people queues an e-mail for each: no statement carries more values than SQLite takes', async () => {
  const { db, mail } = await mailSetup();
  const people = Array.from({ length: 2_500 }, (_, i) => ({ userName: `p${String(i).padStart(4, '0')}`, role: 'CLI' }));
  for (let i = 0; i < people.length; i += 500) await addUsers(db, people.slice(i, i + 500));
  await mail.notifyProject(notice({ recipients: people.map((p) => p.userName) }));
  const queued = await db.k
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.count<number>('recipient').distinct().as('n'))
    .where('kind', '=', 'message_posted')
    .executeTakeFirstOrThrow();
  expect(Number(queued.n)).toBe(2_500);
});

test('an invited address nobody accepted gets no project e-mail (its invitation only); the others still get theirs', async () => {
  const { smtp, db, mail } = await mailSetup();
  await addUsers(db, [
    { userName: 'rita', role: 'CLI' },
    { userName: 'typed', role: 'CLI', invited: true },
  ]);
  await mail.notifyProject(notice({ recipients: ['typed', 'rita'] }));
  await mail.flush();
  await smtp.waitFor(1);
  expect(smtp.messages.map((m) => m.envelope.to)).toEqual([['rita@example.com']]);
});

test('contact messages go to CONTACT_NOTIFY_TO when it is set, else to every enabled admin with an address', async () => {
  const toAddress = await mailSetup({ env: { CONTACT_NOTIFY_TO: 'staff@example.com' } });
  await addUsers(toAddress.db, [{ userName: 'root', role: 'ADMIN' }]);
  await toAddress.mail.notifyContact(await newContactMessage(toAddress.db));
  await toAddress.mail.flush();
  expect((await toAddress.smtp.waitFor(1)).map((m) => m.envelope.to)).toEqual([['staff@example.com']]);

  const toAdmins = await mailSetup();
  await addUsers(toAdmins.db, [
    { userName: 'root', role: 'ADMIN' },
    { userName: 'boss', role: 'ADMIN', locale: 'en' },
    { userName: 'off', role: 'ADMIN', disabled: true },
    { userName: 'blind', role: 'ADMIN', email: null },
    { userName: 'carla', role: 'CLI' },
  ]);
  const message = await newContactMessage(toAdmins.db);
  await toAdmins.mail.notifyContact(message);
  await toAdmins.mail.flush();
  const received = await toAdmins.smtp.waitFor(2);
  expect(received.map((m) => [m.envelope.to[0], m.subject]).sort()).toEqual([
    ['boss@example.com', 'Contact message: Hola'],
    ['root@example.com', 'Mensaje de contacto: Hola'],
  ]);
  expect((await contactMessages(toAdmins.db).get(message.id))?.notifyStatus).toBe('sent');
});

test('a contact message nobody can be told about (no CONTACT_NOTIFY_TO, no admin with an address) is flagged none, not pending', async () => {
  const { db, mail } = await mailSetup();
  const message = await newContactMessage(db);
  await mail.notifyContact(message);
  expect((await contactMessages(db).get(message.id))?.notifyStatus).toBe('none');
});

test('when the SMTP server refuses, the e-mail is tried again after the pause, then delivered', async () => {
  const clock = testClock();
  const { smtp, db, mail } = await mailSetup({ now: clock.now, retryDelayMs: (n) => n * MINUTE });
  await addUsers(db, [{ userName: 'rita', role: 'CLI' }]);
  smtp.refuseNext(2);
  await mail.notifyProject(notice());
  await mail.flush();
  expect(smtp.refused).toBe(1);
  await mail.flush(); // not due yet: the pause after one failure is a minute
  expect(smtp.refused).toBe(1);
  clock.advance(MINUTE);
  await mail.flush();
  expect(smtp.refused).toBe(2);
  clock.advance(2 * MINUTE);
  await mail.flush();
  await smtp.waitFor(1);
  const [row] = await mailOutbox(db).byRef('project:7');
  expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
});

test('after the last attempt the row is marked failed, the failure is logged, and a contact message shows the failed flag', async () => {
  const clock = testClock();
  const { logger, lines } = capturingLogger();
  const { smtp, db, mail } = await mailSetup({
    env: { CONTACT_NOTIFY_TO: 'staff@example.com' },
    logger,
    now: clock.now,
    retryDelayMs: () => MINUTE,
    maxAttempts: 3,
  });
  smtp.refuseNext(10);
  const message = await newContactMessage(db);
  await mail.notifyContact(message);
  for (let attempt = 1; attempt <= 3; attempt++) {
    await mail.flush();
    expect((await contactMessages(db).get(message.id))?.notifyStatus).toBe(attempt < 3 ? 'pending' : 'failed');
    clock.advance(MINUTE);
  }
  await mail.flush();
  expect(smtp.refused).toBe(3); // given up: no fourth attempt
  const [row] = await mailOutbox(db).byRef(`contact:${message.id}`);
  expect(row).toMatchObject({ status: 'failed', attempts: 3 });
  expect(row?.last_error).toContain('Mailbox busy');
  const gaveUp = lines.map((line) => JSON.parse(line) as { level: number; msg: string; ref?: string }).filter((l) => l.level === 50);
  expect(gaveUp).toMatchObject([{ msg: 'e-mail failed 3 times: given up (marked failed)', ref: `contact:${message.id}` }]);
  expect((await contactMessages(db).get(message.id))?.message).toBe('Un mensaje de prueba.'); // the message is kept
});

test('two senders on one database (two instances) send each row once', async () => {
  const smtp = await startSmtp();
  const db = await testDatabase();
  const config = testConfig({ SMTP_URL: smtp.url });
  const logger = createLogger('silent');
  const [first, second] = [0, 1].map(() => createMail({ db, config, logger, background: false }));
  try {
    const users = Array.from({ length: 12 }, (_, i) => ({ userName: `user${i}`, role: 'CLI' }));
    await addUsers(db, users);
    await first!.notifyProject(notice({ recipients: users.map((u) => u.userName) }));
    await Promise.all([first!.flush(), second!.flush(), first!.flush(), second!.flush()]);
    await smtp.waitFor(12);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a duplicate would arrive now
    const addresses = smtp.messages.map((m) => m.envelope.to[0]).sort();
    expect(addresses).toEqual(users.map((u) => `${u.userName}@example.com`).sort());
    expect(new Set((await mailOutbox(db).byRef('project:7')).map((row) => row.status))).toEqual(new Set(['sent']));
  } finally {
    await first!.stop();
    await second!.stop();
    await smtp.stop();
    await db.close();
  }
});

test('e-mails still pending when the site stops are delivered after it starts again', async () => {
  const smtp = await startSmtp();
  const open = await reopenableTestDatabase();
  const config = testConfig({ SMTP_URL: smtp.url });
  const logger = createLogger('silent');
  const clock = testClock();
  try {
    const before = await open();
    await addUsers(before, [{ userName: 'rita', role: 'CLI' }]);
    const first = createMail({ db: before, config, logger, now: clock.now, background: false });
    smtp.refuseNext(1);
    await first.notifyProject(notice());
    await first.flush();
    expect(smtp.refused).toBe(1);
    await first.stop();
    await before.close();

    clock.advance(10 * MINUTE);
    const after = await open();
    const second = createMail({ db: after, config, logger, now: clock.now, background: false });
    await second.flush();
    await smtp.waitFor(1);
    expect(smtp.messages[0]?.subject).toBe('Nuevo mensaje en «Plan de datos»');
    await second.stop();
    await after.close();
  } finally {
    await smtp.stop();
  }
});

test('the background sender sends a queued e-mail at once, without waiting for the poll', async () => {
  const { smtp, db, mail } = await mailSetup({ background: true, pollMs: 3_600_000 });
  await addUsers(db, [{ userName: 'rita', role: 'CLI' }]);
  await mail.notifyProject(notice());
  await smtp.waitFor(1, 2_000);
});

test('queueing never fails the action that caused it: a database error is logged and the call resolves', async () => {
  const { logger, lines } = capturingLogger();
  const { db, mail } = await mailSetup({ logger });
  await db.k.schema.dropTable('mail_outbox').execute();
  await addUsers(db, [{ userName: 'rita', role: 'CLI' }]);
  await expect(mail.notifyProject(notice())).resolves.toBeUndefined();
  expect(lines.some((line) => line.includes('project e-mail could not be queued'))).toBe(true);
});

test('without SMTP_URL, in development, the e-mail is written to the log and marked sent', async () => {
  const { logger, lines } = capturingLogger();
  const db = await testDatabase();
  try {
    const mail = createMail({ db, config: testConfig({ NODE_ENV: 'development' }), logger, background: false });
    expect(mail.canSend).toBe(true);
    await addUsers(db, [{ userName: 'rita', role: 'CLI' }]);
    await mail.notifyProject(notice());
    await mail.flush();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; mail?: { to: string; subject: string }; body?: string });
    const entry = logged.find((l) => l.msg === 'e-mail written to the log (no SMTP_URL)');
    expect(entry?.mail).toMatchObject({ to: 'rita@example.com', subject: 'Nuevo mensaje en «Plan de datos»' });
    expect(entry?.body).toContain('https://www.example.test/cli/projects/7');
    expect((await mailOutbox(db).byRef('project:7')).map((row) => row.status)).toEqual(['sent']);
    await mail.stop();
  } finally {
    await db.close();
  }
});

test('without SMTP_URL, in production, the module says canSend=false and queues nothing', async () => {
  const db = await testDatabase();
  try {
    const mail = createMail({ db, config: testConfig({ NODE_ENV: 'production' }), logger: createLogger('silent') });
    expect(mail.canSend).toBe(false);
    await addUsers(db, [{ userName: 'rita', role: 'CLI' }]);
    await mail.notifyProject(notice());
    await mail.flush();
    expect(await mailOutbox(db).byRef('project:7')).toEqual([]);
    await mail.stop();
  } finally {
    await db.close();
  }
});

// The notices' fan-out (docs/decisions/052): a project's notice is queued by the request that
// caused it and told off the request path, a batch at a time with a turn of the event loop
// between batches, to whoever may see the project when it is told — the company's people who
// accepted their invitation, the experts who are still experts, the admins; never an address
// nobody accepted, nor someone who lost their access. A batch is told once: a failure is tried
// again from where it stopped, a row left by a dead instance is taken over, a held notice
// withdrawn meanwhile tells nothing more. Both engines.
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../server/base/logger.ts';
import type { Db } from '../../server/db/index.ts';
import { createFanOut, type FanOutDeps } from '../../server/fan-out/fan-out.ts';
import { createMail, type Mail } from '../../server/mail/index.ts';
import { createNotifications } from '../../server/notifications/notifications.ts';
import { setRole } from '../../server/users/users.ts';
import { createTestApp, TEST_ENGINE, testConfig } from '../helpers/app.ts';
import { capturingLogger } from '../helpers/log.ts';
import { userRow } from '../helpers/users.ts';
import { activeProject, api, PEOPLE, signInEveryone, UNLIMITED } from '../projects/fixtures.ts';

const logger = createLogger('silent');

/** `count` colleagues of the owner's company written straight into the tables; `invited`: their invitation pending. */
async function addColleagues(db: Db, prefix: string, count: number, invited = false): Promise<string[]> {
  const company = await db.k
    .selectFrom('company_members')
    .select('company_id')
    .where('user_name', '=', PEOPLE.owner.userName)
    .executeTakeFirstOrThrow();
  const names = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  const at = new Date().toISOString();
  for (let i = 0; i < names.length; i += 400) {
    const chunk = names.slice(i, i + 400);
    await db.k
      .insertInto('users')
      .values(chunk.map((name) => userRow({ user_name: name, email: `${name}@acme.example`, invited_at: invited ? at : null })))
      .execute();
    await db.k
      .insertInto('company_members')
      .values(chunk.map((name) => ({ user_name: name, company_id: company.company_id, role: 'member', joined_at: at })))
      .execute();
  }
  return names;
}

/** The site with everyone of the fixtures, the owner's active project with the expert on it. */
async function projectSite(fanOut: Partial<Pick<FanOutDeps, 'background' | 'batch' | 'breathe'>> = {}) {
  const site = await createTestApp(UNLIMITED, { fanOut });
  const tokens = await signInEveryone(site.app, site.db);
  const id = await activeProject(site.app, tokens);
  return { ...site, tokens, id };
}

/** Who has a message_posted notification, and who a message_posted e-mail (by address). */
async function toldOfMessages(db: Db) {
  const notified = await db.k.selectFrom('notifications').select('user_name').where('kind', '=', 'message_posted').execute();
  const mailed = await db.k.selectFrom('mail_outbox').select('recipient').where('kind', '=', 'message_posted').execute();
  return { notified: notified.map((r) => r.user_name).sort(), mailed: mailed.map((r) => r.recipient).sort() };
}

/** A turn of the fan-out the test holds until it lets go, each turn noting how many had been told by then. */
function heldTurns(count: () => Promise<number>) {
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const seen: number[] = [];
  return {
    seen,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    let() {
      gate = null;
      release();
    },
    waiting: () => seen.length,
    async breathe() {
      seen.push(await count());
      if (gate) await gate;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe(`the notices' fan-out (${TEST_ENGINE})`, () => {
  test('a message to a company of 250 is answered before anyone is told, then told 100 people at a time with a turn of the event loop between batches', async () => {
    // The site's database once it exists (the set-up's own notices are told before it does).
    const of: { db?: Db } = {};
    const count = async () =>
      of.db === undefined
        ? 0
        : Number(
            (
              await of.db.k
                .selectFrom('notifications')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('kind', '=', 'message_posted')
                .executeTakeFirstOrThrow()
            ).n,
          );
    const turns = heldTurns(count);
    const site = await projectSite({ background: true, batch: 100, breathe: () => turns.breathe() });
    of.db = site.db;
    const members = await addColleagues(site.db, 'm', 250);
    await site.fanOut.flush();
    turns.seen.length = 0;
    turns.hold();
    const posted = await api(site.app, site.tokens.owner).post(`/projects/${site.id}/messages`, { body: 'Hello, all of you' });
    expect(posted.status).toBe(201);
    expect(await count()).toBe(0);
    await expect.poll(() => turns.waiting()).toBeGreaterThan(0);
    expect(await count()).toBe(0);
    turns.let();
    await expect.poll(async () => Number((await site.db.k.selectFrom('notice_fanouts').select('id').execute()).length)).toBe(0);
    const { notified, mailed } = await toldOfMessages(site.db);
    expect(notified).toEqual([...members, PEOPLE.expert.userName, PEOPLE.admin.userName].sort());
    expect(mailed).toHaveLength(notified.length);
    // Never more than a batch written between two turns of the event loop.
    const steps = [...turns.seen, await count()].map((n, i, all) => n - (all[i - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(100);
    await site.close();
  });

  test('only who may see the project when it is told hears of it: no pending invitee, nor an expert moved to another role, a removed colleague or a disabled account', async () => {
    const site = await projectSite();
    const [stays, removed, disabled] = await addColleagues(site.db, 'm', 3);
    const invitees = await addColleagues(site.db, 'typed', 4, true);
    expect((await api(site.app, site.tokens.owner).delete(`/company/members/${removed}`)).status).toBe(204);
    await site.db.k.updateTable('users').set({ disabled: 1 }).where('user_name', '=', disabled!).execute();
    await setRole(site.db, PEOPLE.expert.userName, 'CLI');
    // Still listed as the project's expert, but no longer one: they cannot open it, and hear nothing of it.
    expect(await site.db.k.selectFrom('project_experts').select('user_name').where('project_id', '=', site.id).execute()).toEqual([
      { user_name: PEOPLE.expert.userName },
    ]);

    await api(site.app, site.tokens.owner).post(`/projects/${site.id}/messages`, { body: 'Excerpt for the team only' });
    const { notified, mailed } = await toldOfMessages(site.db);
    expect(notified).toEqual([PEOPLE.admin.userName, stays!].sort());
    expect(mailed).toEqual([PEOPLE.admin.email, `${stays}@acme.example`].sort());
    for (const name of invitees) expect(mailed).not.toContain(`${name}@acme.example`);
    await site.close();
  });
});

/* The queue itself ------------------------------------------------------------------------ */

/** A fan-out on the site's database with its own clock, mail and notification centre; the site seeded as above. */
async function queueSite(options: { members: number; projectMails?: Mail['projectMails'] } & Partial<FanOutDeps>) {
  const { members, projectMails, ...fanOutOptions } = options;
  const site = await projectSite();
  await addColleagues(site.db, 'm', members);
  const clock = { now: Date.parse('2026-12-01T10:00:00Z') };
  const mail = createMail({ db: site.db, config: testConfig(), logger, background: false });
  const notifications = createNotifications({ db: site.db, tell: async () => {}, logger });
  const fanOut = createFanOut({
    db: site.db,
    logger,
    mail: { ...mail, ...(projectMails ? { projectMails } : {}) },
    notifications,
    tell: async () => {},
    now: () => clock.now,
    background: true,
    batch: 50,
    ...fanOutOptions,
  });
  const notice = {
    kind: 'message_posted' as const,
    project: { id: site.id, title: 'Dashboards' },
    actor: { userName: PEOPLE.owner.userName, name: 'Carla Acme' },
    excerpt: 'Hello',
    audience: { company: true },
  };
  return { site, clock, mail, fanOut, notice };
}

async function rowsOf(db: Db) {
  return db.k.selectFrom('notice_fanouts').select(['status', 'attempts', 'last_error', 'run_at']).execute();
}

test(`a batch that fails is tried again after a pause from where it stopped, each person told once; given up and logged after the last attempt (${TEST_ENGINE})`, async () => {
  let failing = true;
  const { logger: capturing, lines } = capturingLogger();
  const real: { mail?: Mail } = {};
  const { site, clock, mail, fanOut, notice } = await queueSite({
    members: 120,
    logger: capturing,
    maxAttempts: 2,
    // The second batch (from m0050 on) cannot be rendered while `failing`.
    projectMails: async (n) => {
      if (failing && n.recipients.includes('m0050')) throw new Error('the database went away');
      return real.mail!.projectMails(n);
    },
  });
  real.mail = mail;
  await fanOut.notify(notice);
  await fanOut.flush();
  const [row] = await rowsOf(site.db);
  expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'the database went away' });
  expect((await toldOfMessages(site.db)).notified).toHaveLength(50);
  // Not before its pause; then on from the second batch, nobody told twice.
  await fanOut.flush();
  expect((await toldOfMessages(site.db)).notified).toHaveLength(50);
  failing = false;
  clock.now += 60_000;
  await fanOut.flush();
  const { notified, mailed } = await toldOfMessages(site.db);
  expect(notified).toHaveLength(120);
  expect(new Set(notified).size).toBe(120);
  expect(new Set(mailed).size).toBe(120);
  expect(await rowsOf(site.db)).toEqual([]);

  // A notice that keeps failing is given up after the last attempt: failed, and said so in the log.
  failing = true;
  await fanOut.notify(notice);
  await fanOut.flush();
  clock.now += 60_000;
  await fanOut.flush();
  expect(await rowsOf(site.db)).toMatchObject([{ status: 'failed', attempts: 2 }]);
  expect(lines.some((line) => line.includes('given up'))).toBe(true);
  await site.close();
});

test(`a notice left half-told by an instance that died is taken over after the claim timeout, and goes on from where it stopped (${TEST_ENGINE})`, async () => {
  const { site, clock, fanOut, notice } = await queueSite({ members: 80 });
  await fanOut.notify(notice);
  await fanOut.flush();
  expect((await toldOfMessages(site.db)).notified).toHaveLength(80);
  // The same notice again, claimed by an instance that then died after its first batch.
  await site.db.k.deleteFrom('notifications').execute();
  const dead = createFanOut({
    db: site.db,
    logger,
    mail: { projectMails: async () => new Map(), queueIn: async () => {}, kick: () => {} },
    notifications: { told: async () => {} },
    tell: async () => {},
    now: () => clock.now,
    background: true,
    batch: 50,
    // Its first batch written, it never comes back.
    breathe: async () => {
      const row = await site.db.k.selectFrom('notice_fanouts').select('audience_after').executeTakeFirst();
      if (row?.audience_after) await new Promise(() => {});
    },
  });
  await dead.notify(notice);
  await expect
    .poll(async () => (await site.db.k.selectFrom('notice_fanouts').select('audience_after').executeTakeFirst())?.audience_after)
    .not.toBe('');
  expect((await toldOfMessages(site.db)).notified).toHaveLength(50);
  await fanOut.flush();
  expect((await toldOfMessages(site.db)).notified).toHaveLength(50);
  clock.now += 5 * 60_000 + 1;
  await fanOut.flush();
  expect((await toldOfMessages(site.db)).notified).toHaveLength(80);
  await site.close();
});

test(`a held notice withdrawn while it is being told tells nobody more (${TEST_ENGINE})`, async () => {
  let hold: (() => void) | null = null;
  const { site, fanOut, notice } = await queueSite({
    members: 120,
    // Its first turn held by the test; the others at once.
    breathe: () => (hold ? Promise.resolve() : new Promise<void>((resolve) => (hold = resolve))),
  });
  await fanOut.notify({ ...notice, kind: 'milestone_done', milestone: 'Kick-off', hold: { ref: 'milestone:1', ms: 600_000 } });
  await expect.poll(() => hold !== null).toBe(true);
  expect(await fanOut.withdraw('milestone:1')).toBe(1);
  hold!();
  await fanOut.flush();
  expect(await site.db.k.selectFrom('notifications').select('id').where('kind', '=', 'milestone_done').execute()).toEqual([]);
  expect(await site.db.k.selectFrom('mail_outbox').select('id').where('kind', '=', 'milestone_done').execute()).toEqual([]);
  await site.close();
});

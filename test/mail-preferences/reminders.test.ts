// Milestone reminders (docs/decisions/044): each day, from DIGEST_HOUR, the people who
// do an active project's work — its company's people and its assigned experts, not the admins —
// are reminded of a milestone not done whose due day is within their reminder days
// (milestone_due), and once it is past (milestone_overdue): a notification, and an e-mail as their
// "reminders" choice says. Once per milestone, person, kind and due day, however often the job
// runs. Both engines, a real SMTP server, the job runner's clock set by the test.
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../server/base/logger.ts';
import { sendReminders } from '../../server/jobs/reminders.ts';
import { userRow } from '../helpers/users.ts';
import { createTestApp, reopenableTestDatabase, TEST_ENGINE } from '../helpers/app.ts';
import { startSmtp } from '../helpers/smtp.ts';
import { BRIEF, PEOPLE, UNLIMITED } from '../projects/fixtures.ts';
import { at, DAY_1, DAY_2, JOBS_ENV, preferencesSite, storedKinds, to, unsubscribeUrlOf, type PreferencesSite, type Who } from './setup.ts';

const REMINDERS = ['milestone_due', 'milestone_overdue'];

/** Adds a milestone (by the admin) due that day: its id. */
async function milestone(site: PreferencesSite, title: string, dueDate: string | null, id = site.id): Promise<number> {
  const added = await site.as('admin').post(`/projects/${id}/milestones`, { title, dueDate });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return (added.body.milestones as { id: number; title: string }[]).find((m) => m.title === title)!.id;
}

/** The reminders among a user's notifications, oldest first: [kind, milestone]. */
async function remindersOf(site: PreferencesSite, who: Who): Promise<[string, string][]> {
  const res = await site.as(who).get('/notifications');
  return (res.body.items as { kind: string; milestone?: string }[])
    .filter((n) => REMINDERS.includes(n.kind))
    .map((n): [string, string] => [n.kind, n.milestone ?? ''])
    .reverse();
}

async function tickAt(site: PreferencesSite, moment: number) {
  site.clock.now = moment;
  await site.jobs.tick();
  return site.arrived();
}

describe(`milestone reminders (${TEST_ENGINE})`, () => {
  test('a milestone due in 2 days (reminder days 3): the owner and the expert, not the admin, each get one milestone_due notification and e-mail; running again reminds nobody twice', async () => {
    const site = await preferencesSite({ active: true });
    await milestone(site, 'Kick-off', '2026-12-03');
    await milestone(site, 'Far away', '2026-12-20');
    await milestone(site, 'Someday', null);
    await site.arrived();

    const mails = await tickAt(site, at(DAY_1, '08:00'));
    expect(mails.map((m) => m.envelope.to[0]).sort()).toEqual([PEOPLE.owner.email, PEOPLE.expert.email].sort());
    for (const who of ['owner', 'expert'] as const) {
      const [mail] = to(mails, who);
      expect(mail!.subject).toBe(`Recordatorio: «Kick-off» vence el 3 de diciembre de 2026 («${BRIEF.title}»)`);
      expect(unsubscribeUrlOf(mail!)).toMatch(/\.reminders\.[A-Za-z0-9_-]{43}$/);
      expect(await remindersOf(site, who)).toEqual([['milestone_due', 'Kick-off']]);
    }
    expect(await remindersOf(site, 'admin')).toEqual([]);
    const [job] = await site.db.k.selectFrom('jobs').select(['key', 'status']).where('kind', '=', 'reminders').execute();
    expect(job).toEqual({ key: `reminders:${DAY_1}`, status: 'done' });

    // Again that day, forced (as `npm run jobs -- --now` does), and the next day: nobody twice.
    expect(await tickAt(site, at(DAY_1, '10:00'))).toEqual([]);
    site.clock.now = at(DAY_1, '11:00');
    await site.jobs.runNow(['reminders']);
    expect(await site.arrived()).toEqual([]);
    expect(await tickAt(site, at(DAY_2, '08:00'))).toEqual([]);
    expect(await remindersOf(site, 'owner')).toEqual([['milestone_due', 'Kick-off']]);
    const rows = await site.db.k.selectFrom('milestone_reminders').select(['user_name', 'kind', 'due_date']).orderBy('user_name').execute();
    expect(rows).toEqual([
      { user_name: PEOPLE.owner.userName, kind: 'milestone_due', due_date: '2026-12-03' },
      { user_name: PEOPLE.expert.userName, kind: 'milestone_due', due_date: '2026-12-03' },
    ]);
  });

  test('a milestone due yesterday is overdue (milestone_overdue); a done one reminds nobody; nor does a project that is not active', async () => {
    const site = await preferencesSite({ active: true });
    await milestone(site, 'Late', '2026-11-30');
    const done = await milestone(site, 'Finished', '2026-12-02');
    expect((await site.as('expert').patch(`/projects/${site.id}/milestones/${done}`, { done: true })).status).toBe(200);
    // Another project of theirs, still a brief, with a milestone due tomorrow.
    const brief = await site.project('Not started');
    await milestone(site, 'Not yet', '2026-12-02', brief);
    await site.arrived();

    const mails = await tickAt(site, at(DAY_1, '08:00'));
    const reminders = mails.filter((m) => /^(Recordatorio|Vencido):/.test(m.subject ?? ''));
    expect(reminders.map((m) => [m.envelope.to[0], m.subject]).sort()).toEqual(
      [PEOPLE.owner.email, PEOPLE.expert.email]
        .sort()
        .map((email) => [email, `Vencido: «Late» vencía el 30 de noviembre de 2026 («${BRIEF.title}»)`]),
    );
    for (const who of ['owner', 'expert'] as const) expect(await remindersOf(site, who)).toEqual([['milestone_overdue', 'Late']]);
    expect(await remindersOf(site, 'admin')).toEqual([]);
  });

  test('reminders "never": the notification, no e-mail; reminder days 1 for a milestone due in 2 days: nothing yet, then the next day', async () => {
    const site = await preferencesSite({ active: true });
    await site.choose('expert', { reminders: 'never' });
    await site.choose('owner', { reminderDays: 1 });
    await milestone(site, 'Kick-off', '2026-12-03');
    await site.arrived();

    expect(await tickAt(site, at(DAY_1, '08:00'))).toEqual([]);
    expect(await remindersOf(site, 'expert')).toEqual([['milestone_due', 'Kick-off']]);
    expect(await remindersOf(site, 'owner')).toEqual([]);

    const next = await tickAt(site, at(DAY_2, '08:00'));
    expect(next.map((m) => [m.envelope.to[0], m.subject])).toEqual([
      [PEOPLE.owner.email, `Recordatorio: «Kick-off» vence el 3 de diciembre de 2026 («${BRIEF.title}»)`],
    ]);
    expect(await remindersOf(site, 'owner')).toEqual([['milestone_due', 'Kick-off']]);
    expect(await remindersOf(site, 'expert')).toEqual([['milestone_due', 'Kick-off']]);
  });

  test('a milestone whose due day moves is reminded of again for the new day; once overdue, once more', async () => {
    const site = await preferencesSite({ active: true });
    const id = await milestone(site, 'Kick-off', '2026-12-02');
    await site.arrived();
    expect(to(await tickAt(site, at(DAY_1, '08:00')), 'owner')).toHaveLength(1);
    // Moved (the table, as an edit of the milestone would leave it).
    await site.db.k.updateTable('project_milestones').set({ due_date: '2026-12-03' }).where('id', '=', id).execute();
    const moved = to(await tickAt(site, at(DAY_2, '08:00')), 'owner');
    expect(moved.map((m) => m.subject)).toEqual([`Recordatorio: «Kick-off» vence el 3 de diciembre de 2026 («${BRIEF.title}»)`]);
    const overdue = to(await tickAt(site, at('2026-12-04', '08:00')), 'owner');
    expect(overdue.map((m) => m.subject)).toEqual([`Vencido: «Kick-off» vencía el 3 de diciembre de 2026 («${BRIEF.title}»)`]);
    expect(to(await tickAt(site, at('2026-12-05', '08:00')), 'owner')).toEqual([]);
    expect(await remindersOf(site, 'owner')).toEqual([
      ['milestone_due', 'Kick-off'],
      ['milestone_due', 'Kick-off'],
      ['milestone_overdue', 'Kick-off'],
    ]);
  });

  test('exactly once: two instances on one database running the reminders at the same moment remind each person once', async () => {
    const open = await reopenableTestDatabase();
    const smtp = await startSmtp();
    try {
      const clock = { now: at(DAY_1, '08:00') };
      const a = await preferencesSite({ db: await open(), smtp, clock, active: true });
      const b = await createTestApp(
        { ...UNLIMITED, ...JOBS_ENV, SMTP_URL: smtp.url },
        { db: await open(), jobs: { now: () => clock.now + 1 } },
      );
      try {
        await milestone(a, 'Kick-off', '2026-12-03');
        await a.arrived();
        // Forced runs (`--now`) are runs of their own: both run the reminders.
        await Promise.all([a.jobs.runNow(['reminders']), b.jobs.runNow(['reminders']), a.jobs.tick(), b.jobs.tick()]);
        await Promise.all([a.mail.flush(), b.mail.flush()]);
        expect(smtp.messages.map((m) => m.envelope.to[0]).sort()).toEqual([PEOPLE.owner.email, PEOPLE.expert.email].sort());
        expect(await storedKinds(a.db, PEOPLE.owner.userName)).toEqual(expect.arrayContaining(['milestone_due']));
        expect((await storedKinds(a.db, PEOPLE.owner.userName)).filter((k) => k === 'milestone_due')).toHaveLength(1);
        expect((await storedKinds(a.db, PEOPLE.expert.userName)).filter((k) => k === 'milestone_due')).toHaveLength(1);
        // A run whose write lost the race (SQLite: "database is locked") fails and is tried again
        // after its pause, finding everyone reminded: every run ends done, nobody reminded twice.
        clock.now += 60_000;
        await Promise.all([a.jobs.tick(), b.jobs.tick()]);
        const runs = await a.db.k.selectFrom('jobs').select(['key', 'status']).where('kind', '=', 'reminders').execute();
        expect(runs.length).toBeGreaterThanOrEqual(2);
        expect(runs.every((r) => r.status === 'done')).toBe(true);
        expect((await storedKinds(a.db, PEOPLE.owner.userName)).filter((k) => k === 'milestone_due')).toHaveLength(1);
      } finally {
        await b.close();
      }
    } finally {
      await smtp.stop();
    }
  });

  test('a company of 2,500 people, 300 of them invited and not yet accepted: everyone who accepted is reminded, no invitee, and the run is done', async () => {
    const site = await preferencesSite({ active: true });
    await milestone(site, 'Kick-off', '2026-12-03');
    const { company_id: companyId } = await site.db.k
      .selectFrom('company_members')
      .select('company_id')
      .where('user_name', '=', PEOPLE.owner.userName)
      .executeTakeFirstOrThrow();
    const joined = new Date().toISOString();
    for (let i = 0; i < 2_500; i += 500) {
      const names = Array.from({ length: 500 }, (_, j) => `p${String(i + j).padStart(4, '0')}`);
      await site.db.k
        .insertInto('users')
        .values(
          names.map((name, j) => userRow({ user_name: name, email: `${name}@acme.example`, invited_at: i + j < 300 ? joined : null })),
        )
        .execute();
      await site.db.k
        .insertInto('company_members')
        .values(names.map((name) => ({ user_name: name, company_id: companyId, role: 'member', joined_at: joined })))
        .execute();
    }
    site.clock.now = at(DAY_1, '08:00');
    await site.jobs.tick();
    const reminded = await site.db.k.selectFrom('notifications').select('user_name').where('kind', '=', 'milestone_due').execute();
    const mailed = await site.db.k.selectFrom('mail_outbox').select('recipient').where('kind', '=', 'milestone_due').execute();
    const names = new Set(reminded.map((r) => r.user_name));
    expect(names.size).toBe(2_200 + 2);
    expect(reminded).toHaveLength(names.size);
    expect(names.has('p0299')).toBe(false);
    expect(names.has('p0300')).toBe(true);
    expect(new Set(mailed.map((m) => m.recipient)).size).toBe(2_200 + 2);
    expect(mailed.some((m) => m.recipient === 'p0000@acme.example')).toBe(false);
    const [job] = await site.db.k.selectFrom('jobs').select('status').where('kind', '=', 'reminders').execute();
    expect(job!.status).toBe('done');
  });

  test('a reminder that cannot be written fails the run once the others are written, so that the job is tried again; never "done" with one lost', async () => {
    const site = await preferencesSite({ active: true });
    await milestone(site, 'Kick-off', '2026-12-03');
    await milestone(site, 'Broken', '2026-12-03');
    const mail = {
      ...site.mail,
      projectMails: async (notice: Parameters<typeof site.mail.projectMails>[0]) => {
        if (notice.milestone === 'Broken') throw new Error('the database went away');
        return site.mail.projectMails(notice);
      },
    };
    const deps = { db: site.db, mail, notifications: site.notifications, logger: createLogger('silent'), now: () => at(DAY_1, '08:00') };
    await expect(sendReminders(deps, DAY_1)).rejects.toThrow('1 milestone reminders of 2026-12-01 could not be written');
    expect(await remindersOf(site, 'owner')).toEqual([['milestone_due', 'Kick-off']]);
    // Tried again once the cause is gone: the missing one is written, nobody reminded twice.
    await expect(sendReminders({ ...deps, mail: site.mail }, DAY_1)).resolves.toBe(2);
    expect((await remindersOf(site, 'owner')).sort()).toEqual([
      ['milestone_due', 'Broken'],
      ['milestone_due', 'Kick-off'],
    ]);
  });

  test('reminders in the digest: the day’s reminder is in that day’s digest, not e-mailed on its own', async () => {
    const site = await preferencesSite({ active: true });
    await site.choose('owner', { reminders: 'digest' });
    await milestone(site, 'Kick-off', '2026-12-03');
    await site.arrived();
    const mails = await tickAt(site, at(DAY_1, '08:00'));
    const [digest, ...others] = to(mails, 'owner');
    expect(others).toEqual([]);
    expect(digest!.subject).toBe('Tu resumen diario: 1 novedad');
    expect(digest!.text).toContain(`${BRIEF.title}\n- El hito «Kick-off» vence el 3 de diciembre de 2026\n`);
    expect(to(mails, 'expert').map((m) => m.subject?.slice(0, 13))).toEqual(['Recordatorio:']);
    expect(await storedKinds(site.db, PEOPLE.owner.userName)).toContain('milestone_due');
  });
});

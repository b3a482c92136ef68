// The daily digest (docs/decisions/044): the notices of a user's "digest" topics are
// not e-mailed when they happen; once a day, from DIGEST_HOUR in JOBS_TIME_ZONE, the job runner
// sends each such user one e-mail listing what happened since their last digest, grouped under
// each project's title, in their language — nothing when nothing is new, never twice for the
// same notices (two runs at once, two instances on one database). Choosing the digest starts
// from then. Its link turns off every topic the digest gathers. Both engines, a real SMTP server.
import { describe, expect, test } from 'vitest';
import { sendDigests } from '../../server/jobs/digest.ts';
import { notificationRows } from '../../server/notifications/notifications.ts';
import { DEFAULT_MAIL_PREFERENCES } from '../../shared/mail-preferences.ts';
import { createTestApp, reopenableTestDatabase, TEST_ENGINE } from '../helpers/app.ts';
import { startSmtp } from '../helpers/smtp.ts';
import { signIn } from '../my-account/helpers.ts';
import { BRIEF, PEOPLE, UNLIMITED } from '../projects/fixtures.ts';
import {
  at,
  DAY_1,
  DAY_2,
  DAY_3,
  JOBS_ENV,
  oneClick,
  pathOf,
  preferencesSite,
  to,
  unsubscribeUrlOf,
  type PreferencesSite,
} from './setup.ts';

const SECOND = 'Store roll-out';

async function post(site: PreferencesSite, who: 'owner' | 'expert' | 'admin', id: number, body: string) {
  expect((await site.as(who).post(`/projects/${id}/messages`, { body })).status).toBe(201);
}

/** Ticks the job runner at that moment and sends what it queued: the e-mails that arrived. */
async function tickAt(site: PreferencesSite, moment: number) {
  site.clock.now = moment;
  await site.jobs.tick();
  return site.arrived();
}

describe(`the daily digest (${TEST_ENGINE})`, () => {
  test('"digest": nothing at the time; after DIGEST_HOUR one e-mail grouped by project in the user’s language; again that day nothing; the next day only what is new', async () => {
    const site = await preferencesSite();
    const second = await site.project(SECOND);
    // The owner last used the English pages; the expert never chose (Spanish).
    await signIn(site.app, PEOPLE.owner.userName);
    await site.choose('owner', { messages: 'digest', states: 'digest' });
    await site.choose('expert', { messages: 'digest' });
    await site.arrived();

    await post(site, 'expert', site.id, 'First results are in.');
    await post(site, 'admin', second, 'The shops are ready.');
    await post(site, 'expert', site.id, 'Second batch.');
    await post(site, 'owner', second, 'Thanks!');
    const now = await site.arrived();
    expect(to(now, 'owner')).toEqual([]);
    expect(to(now, 'expert')).toEqual([]);
    // The admin did not choose: theirs at once.
    expect(to(now, 'admin')).toHaveLength(3);
    // The notification centre has them all the same.
    expect((await site.notificationKinds('owner')).slice(0, 3)).toEqual(['message_posted', 'message_posted', 'message_posted']);

    // Before the hour: nothing.
    expect(await tickAt(site, at(DAY_1, '06:00'))).toEqual([]);

    const digests = await tickAt(site, at(DAY_1, '08:00'));
    expect(digests.map((m) => m.envelope.to[0]).sort()).toEqual([PEOPLE.owner.email, PEOPLE.expert.email].sort());
    const [owner] = to(digests, 'owner');
    expect(owner!.subject).toBe('Your daily summary: 3 updates');
    // Grouped under each project's title (the first notice's project first), nothing from before the choice.
    expect(owner!.text).toContain(
      `${BRIEF.title}\n- Eva Expert wrote: “First results are in.”\n- Eva Expert wrote: “Second batch.”\n\n` +
        `${SECOND}\n- Sara Staff wrote: “The shops are ready.”\n\n`,
    );
    expect(owner!.text).not.toContain('assigned an expert');
    expect(owner!.text).not.toContain('Thanks!');
    expect(owner!.html).toContain(BRIEF.title);
    expect(unsubscribeUrlOf(owner!)).toMatch(/\.digest\.[A-Za-z0-9_-]{43}$/);
    expect(owner!.text).toContain(unsubscribeUrlOf(owner!));
    const [expert] = to(digests, 'expert');
    expect(expert!.subject).toBe('Tu resumen diario: 2 novedades');
    expect(expert!.text).toContain(`${SECOND}\n- Sara Staff escribió: «The shops are ready.»\n- Carla Acme escribió: «Thanks!»\n\n`);
    expect(expert!.text).not.toContain(BRIEF.title);
    // One outbox row each, named after its user.
    const rows = await site.db.k.selectFrom('mail_outbox').select(['ref']).where('kind', '=', 'digest').orderBy('ref').execute();
    expect(rows.map((r) => r.ref)).toEqual([`digest:${PEOPLE.owner.userName}`, `digest:${PEOPLE.expert.userName}`]);

    // Again that day (and a new notice meanwhile): the day's digest is done.
    await post(site, 'expert', site.id, 'Third batch.');
    expect(to(await site.arrived(), 'owner')).toEqual([]);
    expect(await tickAt(site, at(DAY_1, '09:00'))).toEqual([]);
    expect(await tickAt(site, at(DAY_1, '23:59'))).toEqual([]);

    // The next day: only what is new.
    const next = await tickAt(site, at(DAY_2, '07:00'));
    expect(next.map((m) => m.envelope.to)).toEqual([[PEOPLE.owner.email]]);
    expect(next[0]!.subject).toBe('Your daily summary: 1 update');
    expect(next[0]!.text).toContain(`${BRIEF.title}\n- Eva Expert wrote: “Third batch.”\n\n`);
    expect(next[0]!.text).not.toContain('First results');

    // The day after, nothing new: nothing.
    expect(await tickAt(site, at(DAY_3, '08:00'))).toEqual([]);
  });

  test('a state change chosen for the digest is listed in words; a topic left "immediately" is e-mailed at once and not in the digest', async () => {
    const site = await preferencesSite();
    await site.choose('owner', { states: 'digest' });
    expect(
      (await site.as('admin').patch(`/projects/${site.id}`, { action: 'send_proposal', proposal: { scope: 'S', fee: 1, timeline: 'T' } }))
        .status,
    ).toBe(200);
    await post(site, 'expert', site.id, 'At once');
    expect(to(await site.arrived(), 'owner').map((m) => m.subject)).toEqual([`Nuevo mensaje en «${BRIEF.title}»`]);

    const [digest, ...more] = to(await tickAt(site, at(DAY_1, '08:00')), 'owner');
    expect(more).toEqual([]);
    expect(digest!.subject).toBe('Tu resumen diario: 1 novedad');
    expect(digest!.text).toContain(`${BRIEF.title}\n- Sara Staff envió la versión 1 de la propuesta\n`);
    expect(digest!.text).not.toContain('At once');
  });

  test('choosing the digest starts from then: what came before is not in it, and nothing new means no e-mail', async () => {
    const site = await preferencesSite();
    await post(site, 'expert', site.id, 'Before the choice');
    await site.arrived();
    await site.choose('owner', { messages: 'digest' });
    expect(await tickAt(site, at(DAY_1, '08:00'))).toEqual([]);
    const [row] = await site.db.k.selectFrom('jobs').select(['key', 'status']).where('kind', '=', 'digest').execute();
    expect(row).toEqual({ key: `digest:${DAY_1}`, status: 'done' });
  });

  test('a topic added to the digest later starts from then too: a notice already e-mailed at once is not told again', async () => {
    const site = await preferencesSite();
    await site.choose('owner', { messages: 'digest' });
    expect(
      (await site.as('admin').patch(`/projects/${site.id}`, { action: 'send_proposal', proposal: { scope: 'S', fee: 1, timeline: 'T' } }))
        .status,
    ).toBe(200);
    expect(to(await site.arrived(), 'owner').map((m) => m.subject)).toEqual([`Tienes una propuesta para «${BRIEF.title}»`]);
    await site.choose('owner', { messages: 'digest', states: 'digest' });
    await post(site, 'expert', site.id, 'New since');
    await site.arrived();
    const [digest] = to(await tickAt(site, at(DAY_1, '08:00')), 'owner');
    expect(digest!.subject).toBe('Tu resumen diario: 1 novedad');
    expect(digest!.text).not.toMatch(/envió la (versión \d+ de la )?propuesta/);
  });

  test('the digest’s link turns off every topic the digest gathered (never), and no other', async () => {
    const site = await preferencesSite();
    await site.choose('owner', { messages: 'digest', documents: 'digest' });
    await post(site, 'expert', site.id, 'For the digest');
    const [digest] = to(await tickAt(site, at(DAY_1, '08:00')), 'owner');
    const done = await oneClick(site, pathOf(unsubscribeUrlOf(digest!)));
    expect(done.status).toBe(200);
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual({
      ...DEFAULT_MAIL_PREFERENCES,
      messages: 'never',
      documents: 'never',
    });
    await post(site, 'expert', site.id, 'After');
    expect(to(await tickAt(site, at(DAY_2, '08:00')), 'owner')).toEqual([]);
  });

  test('DIGEST_HOUR is an hour of JOBS_TIME_ZONE (Europe/Madrid by default), and the day is that zone’s', async () => {
    const site = await preferencesSite({ env: { JOBS_TIME_ZONE: undefined } });
    await site.choose('owner', { messages: 'digest' });
    await post(site, 'expert', site.id, 'In Madrid');
    await site.arrived();
    // 06:59 in Madrid (UTC+1 in December): not yet.
    expect(await tickAt(site, at(DAY_1, '05:59'))).toEqual([]);
    // 07:00 in Madrid.
    expect(to(await tickAt(site, at(DAY_1, '06:00')), 'owner')).toHaveLength(1);
    // 00:30 of the next day in Madrid, 23:30 of the same day in UTC: a new day, before its hour.
    await post(site, 'expert', site.id, 'Late at night');
    await site.arrived();
    expect(await tickAt(site, at(DAY_1, '23:30'))).toEqual([]);
    expect(to(await tickAt(site, at(DAY_2, '06:00')), 'owner')).toHaveLength(1);
    const jobs = await site.db.k.selectFrom('jobs').select('key').where('kind', '=', 'digest').orderBy('key').execute();
    expect(jobs.map((j) => j.key)).toEqual([`digest:${DAY_1}`, `digest:${DAY_2}`]);
  });

  test('a long digest lists the first 100 and counts the rest; the next one starts after all of them', async () => {
    const site = await preferencesSite();
    await site.choose('owner', { messages: 'digest' });
    const rows = Array.from({ length: 105 }, (_, i) =>
      notificationRows(
        {
          kind: 'message_posted',
          project: { id: site.id, title: BRIEF.title },
          actor: { userName: PEOPLE.expert.userName, name: 'Eva Expert' },
          recipients: [PEOPLE.owner.userName],
          excerpt: `Message ${i + 1}`,
        },
        new Date().toISOString(),
      ),
    ).flat();
    await site.db.k.insertInto('notifications').values(rows).execute();
    const [digest] = to(await tickAt(site, at(DAY_1, '08:00')), 'owner');
    expect(digest!.subject).toBe('Tu resumen diario: 105 novedades');
    expect(digest!.text).toContain('- Eva Expert escribió: «Message 100»');
    expect(digest!.text).not.toContain('«Message 101»');
    expect(digest!.text).toContain('Y 5 más: míralas todas en tu página de avisos.');
    expect((digest!.text ?? '').match(/^- /gm)).toHaveLength(100);
    await post(site, 'expert', site.id, 'Next one');
    await site.arrived();
    const [next] = to(await tickAt(site, at(DAY_2, '08:00')), 'owner');
    expect(next!.subject).toBe('Tu resumen diario: 1 novedad');
  });

  test('a milestone notice still held (it may yet be unticked) waits for the next digest, with what came after it; none is lost', async () => {
    const site = await preferencesSite({ active: true });
    await site.choose('owner', { messages: 'digest', milestones: 'digest' });
    const added = await site.as('admin').post(`/projects/${site.id}/milestones`, { title: 'Kick-off', dueDate: null });
    expect(added.status).toBe(201);
    const milestone = (added.body.milestones as { id: number }[])[0]!.id;
    expect((await site.as('expert').patch(`/projects/${site.id}/milestones/${milestone}`, { done: true })).status).toBe(200);
    await post(site, 'expert', site.id, 'After the milestone');
    await site.arrived();
    const settleMs = 10 * 60_000;
    const deps = { db: site.db, mail: site.mail, logger: site.logger, settleMs };
    // Within the hold: the held notice could still be withdrawn — no digest yet, nothing skipped.
    expect(await sendDigests({ ...deps, now: () => Date.now() })).toBe(0);
    expect(await site.arrived()).toEqual([]);
    // Past the hold, still ticked: both, in order.
    expect(await sendDigests({ ...deps, now: () => Date.now() + settleMs + 60_000 })).toBe(1);
    const [digest] = to(await site.arrived(), 'owner');
    expect(digest!.subject).toBe('Tu resumen diario: 2 novedades');
    expect(digest!.text).toMatch(/completó el hito «Kick-off»[\s\S]*escribió: «After the milestone»/);
  });

  test('a digest that cannot be queued fails the run once the others are queued, so that the job is tried again; never "done" with one lost', async () => {
    const site = await preferencesSite();
    await site.choose('owner', { messages: 'digest' });
    await site.choose('expert', { messages: 'digest' });
    await post(site, 'admin', site.id, 'For both of them');
    await site.arrived();
    const broken = {
      ...site.mail,
      digestMail: (...args: Parameters<typeof site.mail.digestMail>) => {
        if (args[0].userName === PEOPLE.expert.userName) throw new Error('the template broke');
        return site.mail.digestMail(...args);
      },
    };
    const deps = { db: site.db, mail: broken, logger: site.logger };
    await expect(sendDigests(deps)).rejects.toThrow('1 digests could not be queued');
    expect(to(await site.arrived(), 'owner')).toHaveLength(1);
    // Tried again: the one missing goes, nobody gets theirs twice.
    await expect(sendDigests({ ...deps, mail: site.mail })).resolves.toBe(1);
    const again = await site.arrived();
    expect(again.map((m) => m.envelope.to[0])).toEqual([PEOPLE.expert.email]);
  });

  test('exactly once: three digest runs at once queue one e-mail', async () => {
    const site = await preferencesSite();
    await site.choose('owner', { messages: 'digest' });
    await post(site, 'expert', site.id, 'Only once');
    await site.arrived();
    const deps = { db: site.db, mail: site.mail, logger: site.logger };
    const counts = await Promise.all([sendDigests(deps), sendDigests(deps), sendDigests(deps)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    const mails = await site.arrived();
    expect(mails.map((m) => [m.envelope.to[0], m.subject])).toEqual([[PEOPLE.owner.email, 'Tu resumen diario: 1 novedad']]);
    expect(await sendDigests(deps)).toBe(0);
  });

  test('exactly once: two instances on one database ticking at the same moment send one digest', async () => {
    const open = await reopenableTestDatabase();
    const smtp = await startSmtp();
    try {
      const clock = { now: at(DAY_1, '08:00') };
      const a = await preferencesSite({ db: await open(), smtp, clock });
      const b = await createTestApp(
        { ...UNLIMITED, ...JOBS_ENV, SMTP_URL: smtp.url },
        { db: await open(), jobs: { now: () => clock.now } },
      );
      try {
        await a.choose('owner', { messages: 'digest' });
        await post(a, 'expert', a.id, 'Seen by both');
        await a.arrived();
        await Promise.all([a.jobs.tick(), b.jobs.tick(), a.jobs.tick(), b.jobs.tick()]);
        await Promise.all([a.mail.flush(), b.mail.flush()]);
        const digests = smtp.messages.filter((m) => m.subject?.startsWith('Tu resumen diario'));
        expect(digests.map((m) => m.envelope.to)).toEqual([[PEOPLE.owner.email]]);
        const jobs = await a.db.k.selectFrom('jobs').select(['key', 'status']).orderBy('key').execute();
        expect(jobs).toEqual([
          { key: `digest:${DAY_1}`, status: 'done' },
          { key: `reminders:${DAY_1}`, status: 'done' },
        ]);
      } finally {
        await b.close();
      }
    } finally {
      await smtp.stop();
    }
  });
});

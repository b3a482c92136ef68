// Milestone reminders (docs/decisions/044): the people who do a project's work (its
// company's people and its assigned experts; not every admin) are reminded of a milestone not
// yet done N days before its due day (N: each one's choice, REMINDER_DAYS_DEFAULT by default),
// and once more when it is overdue — as a notification, and by e-mail as their "reminders"
// choice says (at once, in the digest, or never). Active projects only. Each reminder is written
// once per milestone, person, kind and due day (milestone_reminders), in the transaction that
// writes its notification and queues its e-mail: a run again reminds nobody twice; a milestone
// moved to another day is reminded of again. Who is reminded is read from who may see the
// project now (server/projects/audience.ts: no pending invitee, nobody who lost access), a batch of
// people at a time with a turn of the event loop between batches; a reminder that cannot be written
// fails the run after the others are written, so that the job is tried again (docs/decisions/052).
import { REMINDER_DAYS_MAX, DEFAULT_MAIL_PREFERENCES } from '../../shared/mail-preferences.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { localePath } from '../../shared/routes.ts';
import { projectPath } from '../../shared/projects.ts';
import type { Logger } from '../base/logger.ts';
import { addDays } from '../calendar/days.ts';
import type { Db } from '../db/index.ts';
import { inChunks } from '../db/lists.ts';
import { FAN_OUT_BATCH, nextTurn } from '../fan-out/fan-out.ts';
import type { Mail, ProjectNotice } from '../mail/index.ts';
import { notificationRows, type Notifications } from '../notifications/notifications.ts';
import { AUDIENCE_START, audiencePage, type Audience, type AudienceCursor } from '../projects/audience.ts';

const MILESTONES_PER_PAGE = 200;

export type ReminderDeps = {
  db: Db;
  mail: Pick<Mail, 'projectMails' | 'queueIn' | 'kick' | 'preferences'>;
  notifications: Pick<Notifications, 'told'>;
  logger: Logger;
  /** Renews the job's claim (a page of milestones at a time). */
  keepAlive?: () => Promise<void>;
  now?: () => number;
};

/** An overdue milestone is reminded of for this many days after its due day at most (a run missed for days still reminds; years of old milestones do not). */
export const OVERDUE_REMINDER_DAYS = 7;

/** Reminds of the milestones due by `today` + each one's days, and of those overdue: how many reminders were written. */
export async function sendReminders(deps: ReminderDeps, today: string): Promise<number> {
  const { k } = deps.db;
  const now = deps.now ?? Date.now;
  const horizon = addDays(today, REMINDER_DAYS_MAX);
  let written = 0;
  let failed = 0;
  let after = 0;
  for (;;) {
    const milestones = await k
      .selectFrom('project_milestones as m')
      .innerJoin('projects as p', 'p.id', 'm.project_id')
      .select(['m.id', 'm.title', 'm.due_date', 'p.id as project_id', 'p.title as project_title', 'p.company_id'])
      .where('m.done_at', 'is', null)
      .where('m.due_date', 'is not', null)
      .where('m.due_date', '<=', horizon)
      .where('m.due_date', '>=', addDays(today, -OVERDUE_REMINDER_DAYS))
      .where('p.state', '=', 'active')
      .where('m.id', '>', after)
      .orderBy('m.id')
      .limit(MILESTONES_PER_PAGE)
      .execute();
    for (const m of milestones) {
      try {
        written += await remindOf(deps, today, now, {
          id: Number(m.id),
          title: m.title,
          due: m.due_date!,
          project: { id: Number(m.project_id), title: m.project_title, company_id: m.company_id === null ? null : Number(m.company_id) },
        });
      } catch (error) {
        failed++;
        deps.logger.error({ err: error, milestoneId: m.id }, 'milestone reminder not written: the run fails, and is tried again');
      }
    }
    if (milestones.length < MILESTONES_PER_PAGE) break;
    after = Number(milestones.at(-1)!.id);
    await deps.keepAlive?.();
  }
  if (written > 0) deps.mail.kick();
  deps.logger.info({ written, failed, day: today }, 'milestone reminders written');
  // The others are written (and never twice): the job's next attempt writes what is missing.
  if (failed > 0) throw new Error(`${failed} milestone reminders of ${today} could not be written (the log says why)`);
  return written;
}

type Milestone = { id: number; title: string; due: string; project: { id: number; title: string; company_id: number | null } };

/** The company's people and the assigned experts: who does a project's work (not every admin). */
const WORKERS: Audience = { company: true, experts: true };

/** Reminds the milestone's workers, a batch of them at a time: how many reminders were written. */
async function remindOf(deps: ReminderDeps, today: string, now: () => number, m: Milestone): Promise<number> {
  let written = 0;
  let cursor: AudienceCursor | null = AUDIENCE_START;
  while (cursor) {
    const page = await audiencePage(deps.db.k, m.project, WORKERS, cursor, FAN_OUT_BATCH);
    written += await remindSome(deps, today, now, m, page.names);
    cursor = page.next;
    if (cursor) await nextTurn();
  }
  return written;
}

/** Reminds these of the milestone's workers (one batch); who has this reminder already is left out. */
async function remindSome(deps: ReminderDeps, today: string, now: () => number, m: Milestone, names: string[]): Promise<number> {
  const people = [...new Set(names.map(canonicalIdentity))];
  if (people.length === 0) return 0;
  const chosen = await deps.mail.preferences.many(people);
  const overdue = m.due < today;
  const kind = overdue ? 'milestone_overdue' : 'milestone_due';
  // Who has this reminder already: nothing is rendered for them again.
  const reminded = new Set(
    (
      await deps.db.k
        .selectFrom('milestone_reminders')
        .select('user_name')
        .where('milestone_id', '=', m.id)
        .where('kind', '=', kind)
        .where('due_date', '=', m.due)
        .where('user_name', 'in', people)
        .execute()
    ).map((row) => canonicalIdentity(row.user_name)),
  );
  const due = people.filter((userName) => {
    if (reminded.has(userName)) return false;
    if (overdue) return true;
    const days = (chosen.get(userName) ?? DEFAULT_MAIL_PREFERENCES).reminderDays;
    return m.due <= addDays(today, days);
  });
  if (due.length === 0) return 0;
  const notice: ProjectNotice = {
    kind,
    project: { id: m.project.id, title: m.project.title },
    // Nobody did it: the site reminds.
    actor: { userName: '', name: '' },
    recipients: due,
    milestone: m.title,
    due: m.due,
    path: (role, locale) => projectPath(role, m.project.id, locale) ?? localePath('index', locale),
  };
  const mails = await deps.mail.projectMails(notice);
  const at = new Date(now()).toISOString();
  const written = await deps.db.k.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('milestone_reminders')
      .values(due.map((userName) => ({ milestone_id: m.id, user_name: userName, kind, due_date: m.due, sent_at: at })))
      .onConflict((oc) => oc.columns(['milestone_id', 'user_name', 'kind', 'due_date']).doNothing())
      .returning('user_name')
      .execute();
    const names = inserted.map((row) => canonicalIdentity(row.user_name));
    if (names.length === 0) return [];
    for (const rows of inChunks(notificationRows({ ...notice, recipients: names }, at))) {
      await trx.insertInto('notifications').values(rows).execute();
    }
    await deps.mail.queueIn(
      trx,
      names.flatMap((name) => mails.get(name) ?? []),
    );
    return names;
  });
  if (written.length > 0) await deps.notifications.told(written);
  return written.length;
}

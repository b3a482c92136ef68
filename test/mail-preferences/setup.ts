// What the e-mail preference tests share (docs/decisions/044): the site on a fresh database of the run's
// engine, sending to a real SMTP server in this process, with a job runner whose clock the test
// sets; the admin, the client "acme" (a project) and the expert "eva" assigned to it; and what a
// test reads of the e-mails that arrived (their raw headers, their one-click unsubscribe link).
import request from 'supertest';
import { expect, onTestFinished } from 'vitest';
import type { AppDeps } from '../../server/app.ts';
import type { Db } from '../../server/db/index.ts';
import { DEFAULT_MAIL_PREFERENCES, type MailPreferences } from '../../shared/mail-preferences.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { api, BRIEF, PEOPLE, UNLIMITED } from '../projects/fixtures.ts';

export { ORIGIN };

/** The days of these tests: the jobs run from 07:00 UTC (DIGEST_HOUR, JOBS_TIME_ZONE). */
export const DAY_1 = '2026-12-01';
export const DAY_2 = '2026-12-02';
export const DAY_3 = '2026-12-03';

/** The moment of that day at that hour (UTC), for the job runner's clock. */
export function at(day: string, hour: string): number {
  return Date.parse(`${day}T${hour}:00Z`);
}

export const JOBS_ENV = { DIGEST_HOUR: '7', JOBS_TIME_ZONE: 'UTC' };

export const EMAIL = { admin: PEOPLE.admin.email, owner: PEOPLE.owner.email, expert: PEOPLE.expert.email } as const;
export type Who = keyof typeof EMAIL;

const PROPOSAL = { scope: 'Dashboards for 12 shops', fee: 18000, timeline: 'Eight weeks from the start' };

/** The job runner's clock: set by the test. */
export type Clock = { now: number };

export type SiteOptions = {
  /** Added to the test's environment; a key set to undefined is left out (its default). */
  env?: Record<string, string | undefined>;
  /** Taken to `active` (proposal sent and accepted) before the expert is assigned. */
  active?: boolean;
  db?: Db;
  /** An SMTP server shared with another instance (the caller stops it). */
  smtp?: TestSmtp;
  clock?: Clock;
  deps?: Partial<AppDeps>;
};

/**
 * The site with its people and one project (in `brief`, or `active`), the e-mails of the set-up
 * sent and forgotten: what a test reads in `smtp.messages` is what it caused.
 */
export async function preferencesSite(options: SiteOptions = {}) {
  const smtp = options.smtp ?? (await startSmtp());
  const clock = options.clock ?? { now: at(DAY_1, '08:00') };
  const env = Object.entries({ ...UNLIMITED, ...JOBS_ENV, SMTP_URL: smtp.url, SITE_NAME: 'Acme Consulting', ...options.env }).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const site = await createTestApp(Object.fromEntries(env), {
    ...(options.db ? { db: options.db } : {}),
    ...options.deps,
    jobs: { now: () => clock.now },
  });
  onTestFinished(async () => {
    await site.close();
    if (!options.smtp) await smtp.stop();
  });
  for (const person of [PEOPLE.admin, PEOPLE.owner, PEOPLE.expert]) await addUser(site.db, person);
  const tokens: Record<Who, string> = {
    admin: await loginToken(site.app, PEOPLE.admin.userName),
    owner: await loginToken(site.app, PEOPLE.owner.userName),
    expert: await loginToken(site.app, PEOPLE.expert.userName),
  };
  const as = (who: Who) => api(site.app, tokens[who]);

  /** A project of the owner's (`active`: accepted), with the expert assigned: its id. */
  async function project(title = BRIEF.title, active = false): Promise<number> {
    const created = await as('owner').post('/projects', { ...BRIEF, title });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    if (active) {
      expect((await as('admin').patch(`/projects/${id}`, { action: 'send_proposal', proposal: PROPOSAL })).status).toBe(200);
      expect((await as('owner').patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
    }
    expect((await as('admin').post(`/projects/${id}/experts`, { userName: PEOPLE.expert.userName })).status).toBe(200);
    return id;
  }

  const id = await project(BRIEF.title, options.active ?? false);
  await site.mail.flush();
  smtp.messages.splice(0);

  /** Sends what the outbox has due, and takes the e-mails that arrived since the last call. */
  async function arrived(): Promise<ReceivedMail[]> {
    await site.mail.flush();
    return smtp.messages.splice(0);
  }

  /** The user's choice through the API (PUT sends all of them; the rest stay the defaults). */
  async function choose(who: Who, prefs: Partial<MailPreferences>): Promise<MailPreferences> {
    const res = await as(who).put('/me/mail-preferences', { ...DEFAULT_MAIL_PREFERENCES, ...prefs });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as MailPreferences;
  }

  /** The kinds of the user's notifications, newest first. */
  async function notificationKinds(who: Who): Promise<string[]> {
    const res = await as(who).get('/notifications');
    expect(res.status).toBe(200);
    return (res.body.items as { kind: string }[]).map((n) => n.kind);
  }

  return { ...site, smtp, clock, tokens, as, id, project, arrived, choose, notificationKinds };
}

export type PreferencesSite = Awaited<ReturnType<typeof preferencesSite>>;

/** The e-mails of a list that went to one person. */
export function to(mails: readonly ReceivedMail[], who: Who): ReceivedMail[] {
  return mails.filter((m) => m.envelope.to.includes(EMAIL[who]));
}

/** A header as the message carries it (unfolded), or undefined: read from the raw lines, not mailparser's interpretation. */
export function headerOf(mail: ReceivedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  if (line === undefined) return undefined;
  return line
    .replace(/\r?\n(?=[ \t])/g, '')
    .slice(line.indexOf(':') + 1)
    .trim();
}

/** The one-click unsubscribe link of an e-mail (List-Unsubscribe: <url>): its URL. */
export function unsubscribeUrlOf(mail: ReceivedMail): string {
  const value = headerOf(mail, 'List-Unsubscribe');
  expect(value, `List-Unsubscribe of “${mail.subject}”`).toBeDefined();
  const found = /^<(https:\/\/[^>\s]+)>$/.exec(value!);
  expect(found, `List-Unsubscribe: ${value}`).not.toBeNull();
  return found![1]!;
}

/** The path of an unsubscribe link (the site is PUBLIC_URL = ORIGIN). */
export function pathOf(url: string): string {
  expect(url.startsWith(`${ORIGIN}/unsubscribe/`), url).toBe(true);
  return url.slice(ORIGIN.length);
}

/** What a mail program's "unsubscribe" button does (RFC 8058): no cookie, no Origin. */
export function oneClick(site: PreferencesSite, path: string, body: string | null = 'List-Unsubscribe=One-Click') {
  const req = request(site.app).post(path);
  return body === null ? req : req.type('form').send(body);
}

/** The notifications (kinds) of one user straight from the table, oldest first: for users without a session. */
export async function storedKinds(db: Db, userName: string): Promise<string[]> {
  const rows = await db.k.selectFrom('notifications').select(['kind']).where('user_name', '=', userName).orderBy('id').execute();
  return rows.map((r) => r.kind);
}

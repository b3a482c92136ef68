// The day's jobs (docs/decisions/044): the milestone reminders, then the e-mail
// digests — the handlers the job runner calls, for the site (server/app.ts) and for
// `npm run jobs` (scripts/jobs.ts) alike.
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { Mail } from '../mail/index.ts';
import type { Notifications } from '../notifications/notifications.ts';
import { DIGEST_SETTLE_MS, sendDigests } from './digest.ts';
import { sendReminders } from './reminders.ts';
import type { JobHandler, JobKind } from './runner.ts';

export function dailyJobHandlers(deps: {
  db: Db;
  mail: Mail;
  notifications: Pick<Notifications, 'told'>;
  logger: Logger;
  /** PROJECT_MILESTONE_COLLAPSE_MINUTES: a held milestone notice is not in a digest before its hold is over. */
  collapseMinutes: number;
  now?: (() => number) | undefined;
}): Record<JobKind, JobHandler> {
  const { db, mail, notifications, logger } = deps;
  const clock = deps.now ? { now: deps.now } : {};
  const settleMs = Math.max(DIGEST_SETTLE_MS, deps.collapseMinutes * 60_000);
  return {
    reminders: async ({ day, keepAlive }) => {
      await sendReminders({ db, mail, notifications, logger, keepAlive, ...clock }, day);
    },
    digest: async ({ keepAlive }) => {
      await sendDigests({ db, mail, logger, settleMs, keepAlive, ...clock });
    },
  };
}

// The jobs as a domain: each day from DIGEST_HOUR, the milestone reminders and the e-mail
// digests; every poll, the outbox and the notices left to tell. Claimed once across instances, retried with backoff.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { FanOut } from '../fan-out/fan-out.ts';
import type { Mail } from '../mail/index.ts';
import type { Notifications } from '../notifications/notifications.ts';
import { dailyJobHandlers } from './daily.ts';
import { createJobs } from './runner.ts';

export type JobsModuleDeps = {
  config: Config;
  db: Db;
  mail: Mail;
  notifications: Pick<Notifications, 'told'>;
  /** The notices queued to be told (what an instance left: this poll takes it up). */
  fanOut?: Pick<FanOut, 'flush'>;
  logger: Logger;
  /** The runner's clock (tests); by default the system's. */
  now?: (() => number) | undefined;
};

export function jobsModule({ config, db, mail, notifications, fanOut, logger, now }: JobsModuleDeps) {
  return createJobs({
    db,
    logger,
    hour: config.DIGEST_HOUR,
    timeZone: config.JOBS_TIME_ZONE,
    handlers: dailyJobHandlers({ db, mail, notifications, logger, collapseMinutes: config.PROJECT_MILESTONE_COLLAPSE_MINUTES, now }),
    outbox: () => mail.poll(),
    ...(fanOut ? { fanOut: () => fanOut.flush() } : {}),
    ...(now ? { now } : {}),
  });
}

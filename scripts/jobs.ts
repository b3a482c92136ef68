// `npm run jobs -- --now [--digest] [--reminders]`: runs today's milestone reminders and e-mail
// digests at once, whatever DIGEST_HOUR says, then sends the outbox — with the site's settings
// (DATABASE_URL or DATA_DIR, SMTP_URL, JOBS_TIME_ZONE…). Each is safe to run while the site runs
// and more than once: a digest tells only what came after the last one, a reminder is sent once.
// Without --now it runs what is due now, as every instance of the site does every 30 s.
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/base/config.ts';
import { createLogger } from '../server/base/logger.ts';
import { createChangeFeed } from '../server/db/changes.ts';
import { databaseFile, openDatabase } from '../server/db/index.ts';
import { dailyJobHandlers } from '../server/jobs/daily.ts';
import { createJobs, type JobKind } from '../server/jobs/runner.ts';
import { liveTeller } from '../server/live/topics.ts';
import { createMail } from '../server/mail/index.ts';
import { createNotifications } from '../server/notifications/notifications.ts';

const { values } = parseArgs({
  options: { now: { type: 'boolean' }, digest: { type: 'boolean' }, reminders: { type: 'boolean' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log('npm run jobs -- --now [--digest] [--reminders]   (both when neither is named)');
  process.exit(0);
}
const kinds: JobKind[] =
  values.digest || values.reminders ? (['reminders', 'digest'] as const).filter((k) => values[k]) : ['reminders', 'digest'];

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const db = await openDatabase({ url: config.DATABASE_URL, file: databaseFile(config.DATA_DIR), poolMax: 2 });
try {
  const changes = await createChangeFeed(db, { logger });
  const mail = createMail({ db, config, logger, poll: false });
  const notifications = createNotifications({ db, tell: liveTeller(changes, logger), logger });
  const jobs = createJobs({
    db,
    logger,
    hour: config.DIGEST_HOUR,
    timeZone: config.JOBS_TIME_ZONE,
    handlers: dailyJobHandlers({ db, mail, notifications, logger, collapseMinutes: config.PROJECT_MILESTONE_COLLAPSE_MINUTES }),
    outbox: () => mail.flush(),
  });
  if (values.now) await jobs.runNow(kinds);
  else await jobs.tick();
  await mail.stop();
  notifications.stop();
  await changes.close();
  console.log(`Done: ${values.now ? kinds.join(' and ') : 'what was due'} (see the log above).`);
} catch (error) {
  console.error(`The jobs could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}

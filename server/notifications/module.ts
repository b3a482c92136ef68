// The notification centre as a domain: every project notice, per recipient; what changes is told
// to the users' live streams on every instance. Old ones go once a day.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import { liveTeller } from '../live/topics.ts';
import { createNotifications } from './notifications.ts';

export function notificationsModule({ config, db, changes, logger }: { config: Config; db: Db; changes: ChangeFeed; logger: Logger }) {
  const tell = liveTeller(changes, logger);
  const notifications = createNotifications({ db, tell, logger });
  notifications.startPruning(config.NOTIFICATIONS_KEEP_DAYS);
  return { tell, notifications };
}

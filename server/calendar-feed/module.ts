// The users' private calendar addresses as a domain: the site's own users only, so null with an
// external API (whose users' current state the site cannot read without a session).
import type { Locale } from '../../shared/locales.ts';
import type { Translate } from '../../shared/translate.ts';
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import { deriveKeyBytes } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { FailWith } from '../http/form-answers.ts';
import { createCalendarFeeds } from './feeds.ts';
import { createCalendarForms } from './forms.ts';

export type CalendarModuleDeps = {
  config: Config;
  db: Db;
  projects: Parameters<typeof createCalendarFeeds>[0]['projects'];
  translate: (locale: Locale) => Translate;
  logger: Logger;
  external: boolean;
};

export function calendarModule({ config, db, projects, translate, logger, external }: CalendarModuleDeps) {
  if (external) return null;
  const feeds = createCalendarFeeds({
    db,
    keys: deriveKeyBytes(config.SESSION_SECRETS, 'calendar feed v1'),
    origin: config.PUBLIC_URL,
    siteName: config.SITE_NAME,
    projects,
    translator: translate,
    limiter: createRateLimiter(db, 3_600_000),
    readsPerHour: config.CALENDAR_READS_PER_HOUR,
    logger,
  });
  return { feeds, forms: (failWith: FailWith) => createCalendarForms({ feeds, failWith }) };
}

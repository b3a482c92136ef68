// The notices' fan-out as a domain (docs/decisions/052): a project's notices and live pages,
// queued by the request that made the change and told to whoever may see the project then, a
// batch at a time, off the request path. The job runner's poll takes up what an instance left.
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { Tell } from '../live/topics.ts';
import type { Mail } from '../mail/index.ts';
import type { Notifications } from '../notifications/notifications.ts';
import { createFanOut, type FanOutDeps } from './fan-out.ts';

export type FanOutModuleDeps = {
  db: Db;
  mail: Mail;
  notifications: Notifications;
  tell: Tell;
  logger: Logger;
  /** How it is told (tests): before `notify` answers instead of in the background, in smaller batches, held between them. */
  options?: Pick<FanOutDeps, 'background' | 'batch' | 'breathe'> | undefined;
};

export function fanOutModule({ db, mail, notifications, tell, logger, options }: FanOutModuleDeps) {
  const fanOut = createFanOut({ db, mail, notifications, tell, logger, ...options });
  return {
    fanOut,
    /** The projects' callbacks: a failure to queue is logged, never the change's failure. */
    projectNotices: {
      notify: (notice: Parameters<typeof fanOut.notify>[0]) =>
        fanOut
          .notify(notice)
          .catch((error: unknown) =>
            logger.error({ err: error, projectId: notice.project.id, kind: notice.kind }, 'project notice not queued'),
          ),
      touch: (projectId: number) =>
        fanOut.touch(projectId).catch((error: unknown) => logger.warn({ err: error, projectId }, 'open pages of a project not told')),
      /** A held notice withdrawn: its queued row, its notifications not yet read, its e-mails not yet sent. */
      withdraw: async (ref: string) => {
        await fanOut.withdraw(ref).catch((error: unknown) => logger.error({ err: error, ref }, 'queued notice not withdrawn'));
        await notifications.withdraw(ref).catch((error: unknown) => logger.error({ err: error, ref }, 'notifications not withdrawn'));
        return mail.withdraw(ref);
      },
    },
  };
}

export type FanOutModule = ReturnType<typeof fanOutModule>;

// Live updates as a domain: one event stream per signed-in tab, fed by the change feed.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { ChangeFeed } from '../db/changes.ts';
import { createLiveStreams, LIVE_SHARE_OF_CONNECTIONS, type NotificationSource } from './streams.ts';

export type LiveModuleDeps = {
  config: Config;
  changes: ChangeFeed;
  sessions: Pick<Sessions, 'current'>;
  notifications: NotificationSource;
  forgetUnread: (userName: string) => void;
  logger: Logger;
};

export function liveModule({ config, ...deps }: LiveModuleDeps) {
  return createLiveStreams({
    ...deps,
    limits: {
      perUser: config.LIVE_STREAMS_PER_USER,
      // Never every connection: a fifth of HTTP_MAX_CONNECTIONS stays for pages and the API.
      perProcess: Math.min(config.LIVE_STREAMS_MAX, Math.floor(config.HTTP_MAX_CONNECTIONS * LIVE_SHARE_OF_CONNECTIONS)),
      heartbeatMs: config.LIVE_HEARTBEAT_SECONDS * 1000,
      maxAgeMs: config.LIVE_STREAM_MAX_MINUTES * 60_000,
    },
  });
}

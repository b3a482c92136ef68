// What the live streams hear (server/live/streams.ts), through the change feed that already tells
// every instance what changed (server/db/changes.ts): one topic per user and per thing, so that
// an instance only wakes the streams of the users it concerns. `live:n:<user>`: their
// notifications changed (new, read, withdrawn); `live:p<id>:<user>`: a project they see changed.
import { canonicalIdentity } from '../../shared/identity.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Logger } from '../base/logger.ts';

export const LIVE_PREFIX = 'live:';

export type LiveTopic = { what: 'notifications' } | { what: 'project'; projectId: number };

export function liveTopic(topic: LiveTopic, userName: string): string {
  const what = topic.what === 'notifications' ? 'n' : `p${topic.projectId}`;
  return `${LIVE_PREFIX}${what}:${canonicalIdentity(userName)}`;
}

/** The topic read back: what changed, for whom; null for anything else. */
export function parseLiveTopic(topic: string): { topic: LiveTopic; userName: string } | null {
  const match = /^live:(n|p([1-9][0-9]{0,9})):(.+)$/s.exec(topic);
  if (!match) return null;
  const userName = match[3]!;
  if (match[1] === 'n') return { topic: { what: 'notifications' }, userName };
  return { topic: { what: 'project', projectId: Number(match[2]) }, userName };
}

/** Tells every instance's streams of these users; a failure is logged, never the caller's. */
export type Tell = (userNames: Iterable<string>, topic: LiveTopic) => Promise<void>;

export function liveTeller(changes: ChangeFeed | undefined, logger: Logger): Tell {
  return async (userNames, topic) => {
    if (!changes) return;
    const names = new Set([...userNames].map(canonicalIdentity));
    if (names.size === 0) return;
    // A statement per few hundred people (db/changes.ts), not one each: a company of thousands is told at once.
    await changes
      .publishAll([...names].map((name) => liveTopic(topic, name)))
      .catch((error: unknown) => logger.warn({ err: error, topic, people: names.size }, 'could not tell a live change'));
  };
}

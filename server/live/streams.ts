// The live stream (docs/decisions/042): one Server-Sent Events stream per signed-in tab
// at LIVE_PATH, fed by the change feed (server/db/changes.ts, NOTIFY on PostgreSQL), so that what
// happens on any instance reaches the tabs open on this one: a new notification (with its id, so
// that a reconnection's Last-Event-ID gets what it missed), a project that changed (the tab reads
// its page again), the bell's count. Bounded: a cap per user and per process (429 past them), a
// heartbeat that also finds the clients that stopped reading (their stream is cut when its
// unsent bytes pass MAX_BUFFERED_BYTES), a longest life after which the browser reconnects, and
// the end of the session (sign-out, revocation, expiry) ends the stream for good. On shutdown
// every stream ends so that its browser reconnects to another instance.
import type { Request, RequestHandler, Response } from 'express';
import { canonicalIdentity } from '../../shared/identity.ts';
import type { LiveEvent, Notification } from '../../shared/notifications.ts';
import type { Logger } from '../base/logger.ts';
import type { Session } from '../auth/session-cookie.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { ChangeFeed } from '../db/changes.ts';
import { LIVE_PREFIX, parseLiveTopic } from './topics.ts';

/** What a stream reads of the notification centre (server/notifications/). */
export type NotificationSource = {
  since(userName: string, afterId: number, limit: number): Promise<Notification[]>;
  unread(userName: string): Promise<number>;
  /** Another instance told that the user's notifications changed: count them again. */
  forget(userName: string): void;
};

export type LiveLimits = {
  /** Streams one user may have open on this instance (a tab each). */
  perUser: number;
  /** Streams this process holds at most. */
  perProcess: number;
  /** A comment line this often keeps proxies from closing an idle stream and finds dead clients. */
  heartbeatMs: number;
  /** A stream ends after this long (the browser reconnects: the session is read again). */
  maxAgeMs: number;
};

/** The share of HTTP_MAX_CONNECTIONS live streams may hold at most (the rest stays for pages and the API). */
export const LIVE_SHARE_OF_CONNECTIONS = 0.8;

/** What the browser waits before it reconnects (the stream's `retry:`). */
export const RECONNECT_MS = 3_000;
/** A reconnection gets at most this many of the notifications it missed (the page lists the rest). */
export const REPLAY_MAX = 50;
/** A client that leaves more than this unread is not reading: its stream is cut. */
export const MAX_BUFFERED_BYTES = 64 * 1024;

type Stream = {
  userName: string;
  sessionId: string;
  res: Response;
  openedAt: number;
  /** The newest notification sent on it. */
  lastId: number;
  endsAt: number;
};

export type LiveStreams = {
  /** GET LIVE_PATH. */
  handler: RequestHandler;
  /** How many streams are open (tests, /metrics). */
  open(): number;
  /** Ends every stream (shutdown): their browsers reconnect elsewhere. New ones get 503. */
  drain(): void;
  close(): void;
};

function frame(event: LiveEvent, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function tooMany(res: Response, message: string, retryAfter: number) {
  res.status(429).set('Retry-After', String(retryAfter)).type('text/plain').send(message);
}

export function createLiveStreams(deps: {
  changes: ChangeFeed;
  sessions: Pick<Sessions, 'current'>;
  notifications: NotificationSource;
  /** Another instance told that the user's projects changed: their navbar's unread count is read again. */
  forgetUnread: (userName: string) => void;
  limits: LiveLimits;
  logger: Logger;
  now?: () => number;
}): LiveStreams {
  const { limits, logger, notifications } = deps;
  const now = deps.now ?? Date.now;
  const streams = createStreamSet(logger);
  let draining = false;

  /** The user's notifications changed: each of their streams gets what it has not had, and the count. */
  async function notificationsChanged(userName: string) {
    notifications.forget(userName);
    const mine = streams.ofUser(userName);
    if (!mine || mine.size === 0) return;
    const from = Math.min(...[...mine].map((s) => s.lastId));
    const [items, unread] = await Promise.all([notifications.since(userName, from, REPLAY_MAX), notifications.unread(userName)]);
    for (const stream of [...mine]) sendNotifications(streams, stream, items, unread);
  }

  deps.changes.subscribe(LIVE_PREFIX, (raw) => {
    const parsed = parseLiveTopic(raw);
    if (!parsed) return;
    const userName = canonicalIdentity(parsed.userName);
    if (parsed.topic.what === 'notifications') {
      notificationsChanged(userName).catch((error: unknown) => logger.warn({ err: error }, 'live notifications not sent'));
      return;
    }
    deps.forgetUnread(userName);
    const mine = streams.ofUser(userName);
    if (!mine) return;
    const text = frame({ type: 'project', data: { id: parsed.topic.projectId } });
    for (const stream of [...mine]) streams.send(stream, text);
  });

  /** A session ended or its user changed: the streams whose session is gone end for good. */
  async function recheck(ended: Iterable<Stream>) {
    for (const stream of [...ended]) {
      const session = await deps.sessions.current(stream.sessionId).catch(() => undefined);
      if (session === null) streams.end(stream, { type: 'end', data: { reason: 'signed_out' } });
    }
  }
  deps.changes.subscribe('session:', (topic) => {
    const id = topic.slice('session:'.length);
    void recheck(streams.all().filter((s) => s.sessionId === id));
  });
  deps.changes.subscribe('user:', (topic) => {
    const set = streams.ofUser(canonicalIdentity(topic.slice('user:'.length)));
    if (set) void recheck(set);
  });

  // One timer for every stream: the heartbeat, and the end of the old ones.
  const heartbeat = setInterval(() => {
    const at = now();
    for (const stream of streams.all()) {
      if (at >= stream.endsAt) streams.end(stream);
      else streams.send(stream, ': ping\n\n');
    }
  }, limits.heartbeatMs);
  heartbeat.unref();

  const opening: Opening = { streams, limits, notifications, logger, now, draining: () => draining };
  return {
    handler: (req, res) => openStream(opening, req, res),
    open: () => streams.count(),
    drain() {
      draining = true;
      // The connection goes too (not kept alive for another request): the browser reconnects elsewhere.
      for (const stream of streams.all()) {
        streams.end(stream);
        stream.res.socket?.end();
      }
    },
    close() {
      clearInterval(heartbeat);
      for (const stream of streams.all()) streams.end(stream);
    },
  };
}

type StreamSet = ReturnType<typeof createStreamSet>;

/** The open streams, by user, and how they are written to and ended. */
function createStreamSet(logger: Logger) {
  const byUser = new Map<string, Set<Stream>>();
  let total = 0;

  function remove(stream: Stream) {
    const set = byUser.get(stream.userName);
    if (!set?.delete(stream)) return;
    total--;
    if (set.size === 0) byUser.delete(stream.userName);
  }

  return {
    count: () => total,
    ofUser: (userName: string): ReadonlySet<Stream> | undefined => byUser.get(userName),
    all: () => [...byUser.values()].flatMap((set) => [...set]),
    add(stream: Stream) {
      const set = byUser.get(stream.userName) ?? new Set<Stream>();
      set.add(stream);
      byUser.set(stream.userName, set);
      total++;
    },
    remove,
    end(stream: Stream, last?: LiveEvent) {
      remove(stream);
      if (!stream.res.writableEnded) stream.res.end(last ? frame(last) : undefined);
    },
    /** Writes to a stream; one whose client stopped reading is cut. */
    send(stream: Stream, text: string) {
      if (stream.res.writableEnded || stream.res.destroyed) return remove(stream);
      if (stream.res.writableLength > MAX_BUFFERED_BYTES) {
        logger.info({ userName: stream.userName }, 'live stream cut: its client stopped reading');
        remove(stream);
        stream.res.destroy();
        return;
      }
      stream.res.write(text);
    },
  };
}

function sendNotifications(streams: StreamSet, stream: Stream, items: readonly Notification[], unread: number) {
  for (const n of items) {
    if (n.id <= stream.lastId) continue;
    stream.lastId = n.id;
    const event: LiveEvent = { type: 'notification', data: { id: n.id, kind: n.kind, projectId: n.project?.id ?? null, unread } };
    streams.send(stream, frame(event, n.id));
  }
  streams.send(stream, frame({ type: 'unread', data: { unread } }));
}

/** What opening a stream reads of the live streams. */
type Opening = {
  streams: StreamSet;
  limits: LiveLimits;
  notifications: NotificationSource;
  logger: Logger;
  now: () => number;
  draining: () => boolean;
};

/** GET LIVE_PATH: a stream for the signed-in tab, within the limits. */
function openStream({ streams, limits, notifications, logger, now, draining }: Opening, req: Request, res: Response): void {
  const session = res.locals.session as Session | null | undefined;
  if (!session) {
    res.status(401).type('text/plain').send('Sign in to follow what changes');
    return;
  }
  if (draining()) {
    res.status(503).set('Retry-After', '5').type('text/plain').send('This server is shutting down: reconnect');
    return;
  }
  const userName = canonicalIdentity(session.user.userName);
  if ((streams.ofUser(userName)?.size ?? 0) >= limits.perUser) {
    tooMany(res, `Too many live streams: at most ${limits.perUser} per user (close a tab)`, 60);
    return;
  }
  if (streams.count() >= limits.perProcess) {
    tooMany(res, 'Too many live streams on this server: try again in a minute', 60);
    return;
  }
  const lastEventId = Number(req.get('last-event-id') ?? '');
  const at = now();
  const stream: Stream = {
    userName,
    sessionId: session.id,
    res,
    openedAt: at,
    lastId: Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : 0,
    endsAt: Math.min(at + limits.maxAgeMs, session.exp * 1000),
  };
  streams.add(stream);
  req.socket.setNoDelay(true);
  res.on('close', () => streams.remove(stream));
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    // no-transform: compression() leaves it alone (a compressed stream would wait for its buffer).
    'Cache-Control': 'private, no-store, no-transform',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  res.write(`retry: ${RECONNECT_MS}\n\n`);
  catchUp(streams, notifications, stream).catch((error: unknown) =>
    logger.warn({ err: error, userName }, 'live stream: the first events were not sent'),
  );
}

/** A reconnection gets the notifications it missed; a first connection only the count. */
async function catchUp(streams: StreamSet, notifications: NotificationSource, stream: Stream): Promise<void> {
  const { userName } = stream;
  if (stream.lastId > 0) {
    const [items, unread] = await Promise.all([notifications.since(userName, stream.lastId, REPLAY_MAX), notifications.unread(userName)]);
    sendNotifications(streams, stream, items, unread);
  } else {
    const [latest] = await notifications.since(userName, 0, 1).catch(() => []);
    stream.lastId = latest?.id ?? 0;
    // With the newest id, so that the browser's reconnection asks for what came after it.
    const unread = await notifications.unread(userName);
    streams.send(stream, frame({ type: 'unread', data: { unread } }, stream.lastId > 0 ? stream.lastId : undefined));
  }
}

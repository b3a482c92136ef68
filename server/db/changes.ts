// How the instances of one site tell each other that something they may have cached changed
// (a user, a session, a branding record): through the database they share. PostgreSQL sends
// each change at once with NOTIFY to every instance that LISTENs; SQLite (the workers of one
// machine) keeps a change counter that each process reads every POLL_MS. A change made by this
// process reaches its own listeners at once, on both engines.
import { sql } from 'kysely';
import type { PoolClient } from 'pg';
import type { Db } from './index.ts';
import { inChunks } from './lists.ts';
import type { Logger } from '../base/logger.ts';

export const CHANNEL = 'site_changes';
/** How often a SQLite process looks for changes made by the other workers. */
export const POLL_MS = 500;

type Listener = (topic: string) => void;

export type ChangeFeed = {
  /** Tells every instance (this one at once) that `topic` changed, e.g. 'user:ana'. */
  publish(topic: string): Promise<void>;
  /**
   * Tells every instance that these topics changed, SQL_LIST_MAX to a statement: the live pages of
   * a company's thousands of people cost a statement per few hundred, not two per person.
   */
  publishAll(topics: Iterable<string>): Promise<void>;
  /** Calls `listener` with each changed topic that starts with `prefix` (e.g. 'user:'). */
  subscribe(prefix: string, listener: Listener): void;
  close(): Promise<void>;
};

/**
 * How many of the latest changes SQLite keeps: each process reads them every POLL_MS, so older
 * rows (one per topic, e.g. every ended session's) have been read long ago and only take room.
 */
export const KEPT_CHANGES = 10_000;

/**
 * Tells every instance that `topic` changed, from a process that listens to nothing (the ops CLI).
 * SQLite: answers the change's version (its own feed then skips it: it heard it already).
 */
export async function announceChange(db: Db, topic: string, keep = KEPT_CHANGES): Promise<number | null> {
  if (db.engine === 'postgres') {
    await sql`SELECT pg_notify(${CHANNEL}, ${topic})`.execute(db.k);
    return null;
  }
  const { rows } = await sql<{
    version: number;
  }>`INSERT INTO changes (topic, version) VALUES (${topic}, (SELECT COALESCE(MAX(version), 0) + 1 FROM changes))
              ON CONFLICT (topic) DO UPDATE SET version = excluded.version RETURNING version`.execute(db.k);
  await sql`DELETE FROM changes WHERE version <= (SELECT MAX(version) FROM changes) - ${keep}`.execute(db.k);
  return rows[0] ? Number(rows[0].version) : null;
}

/**
 * announceChange for many topics: SQLite numbers them in one statement (atomic against the other
 * workers) and answers their versions; PostgreSQL sends one NOTIFY per topic from one query.
 */
export async function announceChanges(db: Db, topics: readonly string[], keep = KEPT_CHANGES): Promise<number[]> {
  const versions: number[] = [];
  for (const chunk of inChunks([...new Set(topics)])) {
    if (db.engine === 'postgres') {
      await sql`SELECT pg_notify(${CHANNEL}, t) FROM unnest(${chunk}::text[]) AS t`.execute(db.k);
      continue;
    }
    // `WHERE true`: SQLite's upsert after a SELECT needs a WHERE to be parsed as one.
    const { rows } = await sql<{ version: number }>`INSERT INTO changes (topic, version)
      SELECT value, (SELECT COALESCE(MAX(version), 0) FROM changes) + key + 1 FROM json_each(${JSON.stringify(chunk)}) WHERE true
      ON CONFLICT (topic) DO UPDATE SET version = excluded.version RETURNING version`.execute(db.k);
    versions.push(...rows.map((row) => Number(row.version)));
  }
  if (db.engine === 'sqlite' && versions.length > 0) {
    await sql`DELETE FROM changes WHERE version <= (SELECT MAX(version) FROM changes) - ${keep}`.execute(db.k);
  }
  return versions;
}

export async function createChangeFeed(db: Db, options: { logger: Logger }): Promise<ChangeFeed> {
  const listeners: { prefix: string; listener: Listener }[] = [];
  const deliver = (topic: string) => {
    for (const { prefix, listener } of listeners) if (topic.startsWith(prefix)) listener(topic);
  };
  const subscribe = (prefix: string, listener: Listener) => void listeners.push({ prefix, listener });

  if (db.engine === 'postgres' && db.pool) {
    const pool = db.pool;
    let client: PoolClient | null = null;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    // One connection that listens; when it breaks (the database restarted), listen again.
    const listen = async () => {
      try {
        client = await pool.connect();
        client.on('notification', (message) => {
          if (message.channel === CHANNEL && message.payload) deliver(message.payload);
        });
        client.on('error', () => {
          client?.release(true);
          client = null;
          if (!closed) retry = setTimeout(() => void listen(), 1_000);
        });
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        options.logger.warn({ err: error }, 'could not listen for changes: retrying');
        client?.release(true);
        client = null;
        if (!closed) retry = setTimeout(() => void listen(), 1_000);
      }
    };
    await listen();
    return {
      async publish(topic) {
        deliver(topic);
        await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, topic]);
      },
      async publishAll(topics) {
        const all = [...topics];
        for (const topic of all) deliver(topic);
        await announceChanges(db, all);
      },
      subscribe,
      async close() {
        closed = true;
        clearTimeout(retry);
        client?.release(true);
      },
    };
  }

  // SQLite: one row per topic with the version of its last change; versions only grow.
  const { k } = db;
  const latest = async () =>
    Number(
      (
        await k
          .selectFrom('changes')
          .select((eb) => eb.fn.max('version').as('v'))
          .executeTakeFirst()
      )?.v ?? 0,
    );
  let seen = await latest();
  /** The versions of this process's own changes not yet passed by the poll (at most OWN_MAX). */
  const own = new Set<number>();
  /** A change of this process's own: the poll skips it (it was delivered when published). */
  const heardAlready = (version: number) => {
    if (version <= seen) return;
    own.add(version);
    if (own.size > KEPT_CHANGES) own.delete(own.values().next().value!);
  };
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    k.selectFrom('changes')
      .select(['topic', 'version'])
      .where('version', '>', seen)
      .orderBy('version')
      .execute()
      .then((rows) => {
        for (const row of rows) {
          const version = Number(row.version);
          seen = Math.max(seen, version);
          // This process's own change was delivered when it was published.
          if (own.delete(version)) continue;
          deliver(row.topic);
        }
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'could not read changes'))
      .finally(() => (polling = false));
  }, POLL_MS);
  timer.unref();
  return {
    async publish(topic) {
      deliver(topic);
      // One statement (atomic against the other workers): the next version of all.
      const version = await announceChange(db, topic);
      if (version !== null) heardAlready(version);
    },
    async publishAll(topics) {
      const all = [...topics];
      for (const topic of all) deliver(topic);
      for (const version of await announceChanges(db, all)) heardAlready(version);
    },
    subscribe,
    async close() {
      clearInterval(timer);
    },
  };
}

// Caches of several instances agree through the database: a change published by one instance
// reaches the others (PostgreSQL NOTIFY, or SQLite's change counter for the workers of a machine).
import { expect, test } from 'vitest';
import { announceChange, createChangeFeed, POLL_MS } from '../../server/db/changes.ts';
import { createLogger } from '../../server/base/logger.ts';
import { TEST_ENGINE, testDatabase } from '../helpers/app.ts';
import { scaled } from '../helpers/time-scale.ts';

const logger = createLogger('silent');

test(`a change published by one instance reaches another's listeners (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const one = await createChangeFeed(db, { logger });
  const other = await createChangeFeed(db, { logger });
  try {
    const heard: string[] = [];
    other.subscribe('user:', (topic) => heard.push(topic));
    other.subscribe('branding:', (topic) => heard.push(topic));
    await one.publish('user:ana');
    await one.publish('branding:acme');
    await one.publish('session:xyz'); // nobody listens to sessions here
    await expect.poll(() => heard, { timeout: scaled(POLL_MS * 6) }).toEqual(['user:ana', 'branding:acme']);
  } finally {
    await one.close();
    await other.close();
    await db.close();
  }
});

test(`a change announced by a process that listens to nothing (the ops CLI) reaches the instances (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const feed = await createChangeFeed(db, { logger });
  try {
    const heard: string[] = [];
    feed.subscribe('user:', (topic) => heard.push(topic));
    await announceChange(db, 'user:dora');
    await announceChange(db, 'user:dora');
    await expect.poll(() => heard.length, { timeout: scaled(POLL_MS * 6) }).toBeGreaterThanOrEqual(1);
    expect(new Set(heard)).toEqual(new Set(['user:dora']));
  } finally {
    await feed.close();
    await db.close();
  }
});

test(`the instance that publishes hears its own change at once (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const feed = await createChangeFeed(db, { logger });
  try {
    const heard: string[] = [];
    feed.subscribe('user:', (topic) => heard.push(topic));
    const publishing = feed.publish('user:eve');
    expect(heard).toEqual(['user:eve']);
    await publishing;
  } finally {
    await feed.close();
    await db.close();
  }
});

// SQLite's counter table keeps one row per topic, and topics such as `session:<id>` are new every
// time (PostgreSQL keeps nothing: NOTIFY is not stored, hence SQLite only).
test.runIf(TEST_ENGINE === 'sqlite')(
  'SQLite keeps only the latest changes: the table stays bounded however many topics change',
  async () => {
    const db = await testDatabase();
    try {
      for (let i = 0; i < 30; i++) await announceChange(db, `session:${i}`, 10);
      const rows = await db.k.selectFrom('changes').select(['topic', 'version']).orderBy('version').execute();
      expect(rows).toHaveLength(10);
      expect(rows.map((r) => r.topic)).toEqual(Array.from({ length: 10 }, (_, i) => `session:${20 + i}`));
    } finally {
      await db.close();
    }
  },
);

test(`1,200 topics published at once reach another instance's listeners, each once, and the publisher's own at once (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const one = await createChangeFeed(db, { logger });
  const other = await createChangeFeed(db, { logger });
  try {
    const topics = Array.from({ length: 1_200 }, (_, i) => `live:n:person${i}`);
    const heardHere: string[] = [];
    const heardThere: string[] = [];
    one.subscribe('live:', (topic) => heardHere.push(topic));
    other.subscribe('live:', (topic) => heardThere.push(topic));
    const publishing = one.publishAll([...topics, topics[0]!]);
    expect(heardHere.slice(0, topics.length)).toEqual(topics);
    await publishing;
    await expect.poll(() => heardThere.length, { timeout: scaled(POLL_MS * 6) }).toBe(topics.length);
    expect(new Set(heardThere)).toEqual(new Set(topics));
    // SQLite: the publisher's own poll does not deliver them a second time (PostgreSQL's LISTEN
    // hears the instance's own NOTIFY, as for publish()).
    if (TEST_ENGINE === 'sqlite') {
      await new Promise((done) => setTimeout(done, POLL_MS * 2));
      expect(heardHere).toHaveLength(topics.length + 1);
    }
  } finally {
    await one.close();
    await other.close();
    await db.close();
  }
});

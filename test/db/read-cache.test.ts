// Reads kept a moment (server/db/read-cache.ts): a key read again within READ_CACHE_MS costs no
// query; a write of this process to a table it reads, made through the query builder or by hand,
// forgets it at once; what another process writes shows within READ_CACHE_MS.
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { createReadCache, READ_CACHE_MS } from '../../server/db/read-cache.ts';
import { TEST_ENGINE, reopenableTestDatabase, testDatabase } from '../helpers/app.ts';
import { userRow } from '../helpers/users.ts';

/** A cache of the users' names and a count of the reads it made. */
function userNames(db: Awaited<ReturnType<typeof testDatabase>>, options: { now?: () => number } = {}) {
  let reads = 0;
  const cache = createReadCache<string[]>(db, { tables: ['users'], ...options });
  const names = () =>
    cache.get('all', async () => {
      reads++;
      return (await db.k.selectFrom('users').select('user_name').orderBy('user_name').execute()).map((row) => row.user_name);
    });
  return { names, reads: () => reads };
}

test(`a key asked again within READ_CACHE_MS is answered without a query (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'ana' }))
      .execute();
    const { names, reads } = userNames(db);
    expect(await names()).toEqual(['ana']);
    expect(await names()).toEqual(['ana']);
    expect(reads()).toBe(1);
  } finally {
    await db.close();
  }
});

test(`concurrent misses of one key share one read (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    const { names, reads } = userNames(db);
    await Promise.all([names(), names(), names()]);
    expect(reads()).toBe(1);
  } finally {
    await db.close();
  }
});

test(`a write of this process to a table the read depends on shows at once (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    const { names, reads } = userNames(db);
    expect(await names()).toEqual([]);
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'ana' }))
      .execute();
    expect(await names()).toEqual(['ana']);
    await db.k.updateTable('users').set({ user_name: 'bea' }).where('user_name', '=', 'ana').execute();
    expect(await names()).toEqual(['bea']);
    await db.k.transaction().execute((trx) => trx.deleteFrom('users').execute());
    expect(await names()).toEqual([]);
    expect(reads()).toBe(4);
  } finally {
    await db.close();
  }
});

test(`a write to another table forgets nothing (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    const { names, reads } = userNames(db);
    await names();
    await db.k.deleteFrom('sessions').execute();
    await names();
    expect(reads()).toBe(1);
  } finally {
    await db.close();
  }
});

test(`SQL written by hand is read by its first words: a write to its table forgets, a SELECT does not (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    const { names, reads } = userNames(db);
    await names();
    await sql`SELECT 1`.execute(db.k);
    await names();
    expect(reads()).toBe(1);
    await sql`INSERT INTO users (user_name, name, last_name, role, scopes, password_hash, disabled, password_changed_at, created_at, updated_at)
              VALUES ('cleo', 'C', 'L', 'CLI', '[]', 'x', 0, 0, '', '')`.execute(db.k);
    expect(await names()).toEqual(['cleo']);
  } finally {
    await db.close();
  }
});

test('a read begun before a write is not kept: the next request reads again', async () => {
  const listeners: (() => void)[] = [];
  const db = { writes: { subscribe: (_tables: readonly string[], listener: () => void) => void listeners.push(listener) } };
  const cache = createReadCache<number>(db, { tables: ['users'] });
  let value = 1;
  let release!: () => void;
  const slow = cache.get('k', () => new Promise<number>((resolve) => (release = () => resolve(value))));
  // The write lands while the read is under way.
  value = 2;
  for (const listener of listeners) listener();
  release();
  expect(await slow).toBe(2);
  let reads = 0;
  expect(
    await cache.get('k', async () => {
      reads++;
      return 3;
    }),
  ).toBe(3);
  expect(reads).toBe(1);
});

test("another process's write shows within READ_CACHE_MS", async () => {
  const open = await reopenableTestDatabase();
  const here = await open();
  const elsewhere = await open();
  try {
    let clock = 0;
    const { names, reads } = userNames(here, { now: () => clock });
    expect(await names()).toEqual([]);
    await elsewhere.k
      .insertInto('users')
      .values(userRow({ user_name: 'ana' }))
      .execute();
    clock = READ_CACHE_MS - 1;
    expect(await names()).toEqual([]);
    clock = READ_CACHE_MS;
    expect(await names()).toEqual(['ana']);
    expect(reads()).toBe(2);
  } finally {
    await here.close();
    await elsewhere.close();
  }
});

test('kept values are frozen: a caller cannot change what later requests get', async () => {
  const db = await testDatabase();
  try {
    const cache = createReadCache<{ items: string[] }>(db, { tables: ['users'] });
    const first = await cache.get('k', async () => ({ items: ['a'] }));
    expect(() => first.items.push('b')).toThrow(TypeError);
    expect((await cache.get('k', async () => ({ items: [] }))).items).toEqual(['a']);
  } finally {
    await db.close();
  }
});

test('bounded by bytes: the oldest values go first, a value over a quarter of the bound is not kept', async () => {
  const db = await testDatabase();
  try {
    const cache = createReadCache<string>(db, { tables: ['users'], maxBytes: 400 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.get(key, async () => key.repeat(80));
    expect(cache.stats().bytes).toBeLessThanOrEqual(400);
    let reads = 0;
    const again = (key: string) =>
      cache.get(key, async () => {
        reads++;
        return key.repeat(80);
      });
    await again('e');
    expect(reads).toBe(0);
    await again('a');
    expect(reads).toBe(1);
    await cache.get('big', async () => 'x'.repeat(200));
    expect(cache.stats().entries).toBeLessThanOrEqual(5);
    await again('big');
    expect(reads).toBe(2);
  } finally {
    await db.close();
  }
});

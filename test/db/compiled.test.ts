// Queries built once per shape and run with new values (server/db/compiled.ts): each run gets its
// own values in the right places, on both engines.
import { expect, test } from 'vitest';
import { preparedQueries } from '../../server/db/compiled.ts';
import { testDatabase } from '../helpers/app.ts';
import { userRow } from '../helpers/users.ts';

test("a prepared shape runs with each call's values, the same value in several places included", async () => {
  const db = await testDatabase();
  try {
    await db.k
      .insertInto('users')
      .values([
        userRow({ user_name: 'ana', role: 'CLI' }),
        userRow({ user_name: 'bea', role: 'CONS' }),
        userRow({ user_name: 'cruz', role: 'CLI' }),
      ])
      .execute();
    const run = preparedQueries();
    let builds = 0;
    const query = (values: { role: string; name: string; limit: number }) =>
      run(db, 'users-by-role', values, (slot) => {
        builds++;
        return db.k
          .selectFrom('users')
          .select('user_name')
          .where((eb) =>
            eb.or([
              eb('role', '=', slot<string>('role')),
              eb('user_name', '=', slot<string>('name')),
              eb('last_name', '=', slot<string>('name')),
            ]),
          )
          .orderBy('user_name')
          .limit(slot<number>('limit'));
      });
    expect((await query({ role: 'CLI', name: 'nobody', limit: 10 })).map((r) => r.user_name)).toEqual(['ana', 'cruz']);
    expect((await query({ role: 'CONS', name: 'ana', limit: 10 })).map((r) => r.user_name)).toEqual(['ana', 'bea']);
    expect((await query({ role: 'CLI', name: 'bea', limit: 2 })).map((r) => r.user_name)).toEqual(['ana', 'bea']);
    expect(builds).toBe(1);
  } finally {
    await db.close();
  }
});

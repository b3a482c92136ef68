// The admin console's home counts unread contact messages and pending deletion requests on every
// load (docs/decisions/039): both are kept a moment like the dashboards' lists (server/db/read-cache.ts) —
// asked again, no query; whatever this process writes to their tables shows at once.
import { expect, test } from 'vitest';
import { contactMessages } from '../../server/contact/messages.ts';
import type { Db } from '../../server/db/index.ts';
import { createDeletions } from '../../server/my-account/deletion.ts';
import { createLogger } from '../../server/base/logger.ts';
import { TEST_ENGINE, testDatabase } from '../helpers/app.ts';
import { addUser } from '../helpers/users.ts';

/** The database, with a count of the SELECT statements sent through it. */
function counting(db: Db): { db: Db; selects: () => number } {
  let selects = 0;
  const k = db.k.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') selects++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db: { ...db, k }, selects: () => selects };
}

const MESSAGE = { name: 'Ana', email: 'ana@example.com', subject: 'Hello', message: 'A question.', locale: 'es' as const, ip: null };

test(`the inbox's counts are kept a moment, and a message added here shows at once (${TEST_ENGINE})`, async () => {
  const base = await testDatabase();
  const { db, selects } = counting(base);
  const inbox = contactMessages(db);
  expect(await inbox.count()).toEqual({ total: 0, unread: 0 });
  const before = selects();
  expect(await inbox.count()).toEqual({ total: 0, unread: 0 });
  expect(selects()).toBe(before);
  await inbox.add(MESSAGE, false);
  expect(await inbox.count()).toEqual({ total: 1, unread: 1 });
  await base.close();
});

test(`the pending deletion requests are kept a moment, and a request made here shows at once (${TEST_ENGINE})`, async () => {
  const base = await testDatabase();
  const { db, selects } = counting(base);
  await addUser(db, { userName: 'rita', role: 'CLI' });
  const deletions = createDeletions({ db, sessions: { forgetUser: () => {} }, logger: createLogger('silent') });
  expect((await deletions.pending()).total).toBe(0);
  const before = selects();
  expect((await deletions.pending()).total).toBe(0);
  expect(selects()).toBe(before);
  await deletions.request('rita');
  expect((await deletions.pending()).items.map((r) => r.userName)).toEqual(['rita']);
  await base.close();
});

// Single-use links (server/account-links/links.ts): random tokens kept only as digests, used once and
// only once (atomically, whatever races), refused when expired, replaced by newer ones.
import { createHash } from 'node:crypto';
import { expect, onTestFinished, test } from 'vitest';
import { accountLinks, KEEP_SPENT_MS } from '../../server/account-links/links.ts';
import { TEST_ENGINE, testDatabase } from '../helpers/app.ts';

const HOUR = 60 * 60 * 1000;

async function setup() {
  const db = await testDatabase();
  onTestFinished(() => db.close());
  let at = Date.parse('2026-11-23T10:00:00Z');
  const clock = { now: () => at, advance: (ms: number) => (at += ms) };
  return { db, clock, links: accountLinks(db, clock.now) };
}

const nothing = async () => undefined;

test(`a link's token is 32 random bytes (base64url), stored only as its sha256 digest (${TEST_ENGINE})`, async () => {
  const { db, links } = await setup();
  const token = await links.issue('password_reset', 'ana', HOUR);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(await links.issue('password_reset', 'bea', HOUR)).not.toBe(token);
  const rows = await db.k.selectFrom('account_links').selectAll().execute();
  expect(rows.find((r) => r.user_name === 'ana')?.token_digest).toBe(createHash('sha256').update(token).digest('base64url'));
  expect(JSON.stringify(rows)).not.toContain(token);
});

test(`a link works once and only once (${TEST_ENGINE})`, async () => {
  const { links } = await setup();
  const token = await links.issue('invitation', 'ana', 72 * HOUR);
  expect(await links.inspect('invitation', token)).toMatchObject({ ok: true, link: { kind: 'invitation', userName: 'ana' } });
  expect(await links.consume('invitation', token, async () => 'done')).toMatchObject({ ok: true, value: 'done' });
  expect(await links.consume('invitation', token, nothing)).toEqual({ ok: false, reason: 'used' });
  expect(await links.inspect('invitation', token)).toEqual({ ok: false, reason: 'used' });
});

test(`uses racing each other: exactly one succeeds, the others are told it was used (${TEST_ENGINE})`, async () => {
  const { links } = await setup();
  const token = await links.issue('password_reset', 'ana', HOUR);
  let applied = 0;
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      links.consume('password_reset', token, async () => {
        applied++;
      }),
    ),
  );
  expect(results.filter((r) => r.ok)).toHaveLength(1);
  expect(results.filter((r) => !r.ok).map((r) => (r.ok ? null : r.reason))).toEqual(Array(7).fill('used'));
  expect(applied).toBe(1);
});

test(`a link is refused as expired once its time is over, and then cannot be used (${TEST_ENGINE})`, async () => {
  const { links, clock } = await setup();
  const token = await links.issue('password_reset', 'ana', HOUR);
  clock.advance(HOUR - 1);
  expect((await links.inspect('password_reset', token)).ok).toBe(true);
  clock.advance(1);
  expect(await links.inspect('password_reset', token)).toEqual({ ok: false, reason: 'expired' });
  expect(await links.consume('password_reset', token, nothing)).toEqual({ ok: false, reason: 'expired' });
});

test.each([
  ['a token never issued', 'A'.repeat(43)],
  ['a malformed token', 'not a token'],
  ['an empty token', ''],
  ['a token with a stray character', `${'A'.repeat(42)}=`],
])(`%s is refused as unknown (${TEST_ENGINE})`, async (_label, token) => {
  const { links } = await setup();
  await links.issue('password_reset', 'ana', HOUR);
  expect(await links.inspect('password_reset', token)).toEqual({ ok: false, reason: 'unknown' });
  expect(await links.consume('password_reset', token, nothing)).toEqual({ ok: false, reason: 'unknown' });
});

test(`a link of one kind opens nothing of another kind (${TEST_ENGINE})`, async () => {
  const { links } = await setup();
  const token = await links.issue('email_change', 'ana', 24 * HOUR, { newEmail: 'new@example.com' });
  expect(await links.inspect('password_reset', token)).toEqual({ ok: false, reason: 'unknown' });
  expect(await links.consume('invitation', token, nothing)).toEqual({ ok: false, reason: 'unknown' });
  expect(await links.inspect('email_change', token)).toMatchObject({ ok: true, link: { newEmail: 'new@example.com' } });
});

test(`a new link of a kind voids the user's older ones of that kind, not their other kinds nor other users' (${TEST_ENGINE})`, async () => {
  const { links } = await setup();
  const first = await links.issue('password_reset', 'ana', HOUR);
  const invitation = await links.issue('invitation', 'ana', HOUR);
  const other = await links.issue('password_reset', 'bea', HOUR);
  const second = await links.issue('password_reset', 'ANA', HOUR);
  expect(await links.inspect('password_reset', first)).toEqual({ ok: false, reason: 'unknown' });
  expect((await links.inspect('password_reset', second)).ok).toBe(true);
  expect((await links.inspect('invitation', invitation)).ok).toBe(true);
  expect((await links.inspect('password_reset', other)).ok).toBe(true);
});

test(`when what the link does fails, the link stays unused and its changes are undone (${TEST_ENGINE})`, async () => {
  const { db, links } = await setup();
  const token = await links.issue('email_change', 'ana', HOUR, { newEmail: 'x@example.com' });
  await expect(
    links.consume('email_change', token, async (_link, trx) => {
      await trx.insertInto('user_locales').values({ user_name: 'ana', locale: 'en', updated_at: 'now' }).execute();
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  expect(await db.k.selectFrom('user_locales').selectAll().execute()).toEqual([]);
  expect((await links.inspect('email_change', token)).ok).toBe(true);
});

test(`used and expired links are remembered for a week (to say why they fail), then pruned (${TEST_ENGINE})`, async () => {
  const { db, links, clock } = await setup();
  const used = await links.issue('invitation', 'ana', 72 * HOUR);
  await links.consume('invitation', used, nothing);
  const expired = await links.issue('password_reset', 'bea', HOUR);
  clock.advance(KEEP_SPENT_MS);
  expect(await links.inspect('invitation', used)).toEqual({ ok: false, reason: 'used' });
  expect(await links.inspect('password_reset', expired)).toEqual({ ok: false, reason: 'expired' });
  clock.advance(2 * HOUR);
  const fresh = await links.issue('password_reset', 'carla', HOUR);
  expect(await links.inspect('invitation', used)).toEqual({ ok: false, reason: 'unknown' });
  expect(await links.inspect('password_reset', expired)).toEqual({ ok: false, reason: 'unknown' });
  expect((await db.k.selectFrom('account_links').select('user_name').execute()).map((r) => r.user_name)).toEqual(['carla']);
  expect((await links.inspect('password_reset', fresh)).ok).toBe(true);
});

test(`a pending link is the newest unused, unexpired one of its kind (${TEST_ENGINE})`, async () => {
  const { links, clock } = await setup();
  expect(await links.pending('email_change', 'ana')).toBeNull();
  await links.issue('email_change', 'ana', HOUR, { newEmail: 'one@example.com' });
  await links.issue('email_change', 'ana', HOUR, { newEmail: 'two@example.com' });
  expect((await links.pending('email_change', 'ANA'))?.newEmail).toBe('two@example.com');
  clock.advance(HOUR);
  expect(await links.pending('email_change', 'ana')).toBeNull();
});

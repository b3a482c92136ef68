// The ops command line turns a user's two-factor authentication off (the phone and the
// recovery codes are lost): `npm run user -- reset-2fa --userName U`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../scripts/user.ts';
import { databaseFile, openDatabase } from '../server/db/index.ts';

test('reset-2fa turns a user’s two-factor authentication off: the key, the recovery codes and any waiting sign-in go', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-2fa-'));
  const lines: string[] = [];
  await run(
    ['add', '--userName', 'ana', '--password', 'a long passphrase', '--role', 'CLI', '--name', 'Ana', '--lastName', 'Ruiz'],
    dataDir,
    (l) => lines.push(l),
  );
  const db = await openDatabase({ file: databaseFile(dataDir) });
  const at = new Date().toISOString();
  await db.k
    .insertInto('two_factor')
    .values({ user_name: 'ana', secret: 'v1.x.y.z', enabled_at: at, last_step: 1, created_at: at })
    .execute();
  await db.k.insertInto('two_factor_recovery_codes').values({ user_name: 'ana', digest: 'd', used_at: null, created_at: at }).execute();
  await db.k
    .insertInto('two_factor_challenges')
    .values({ id: 'c', user_name: 'ana', api_token: 't', expires_at: Date.now() + 60_000, created_at: at })
    .execute();
  await db.close();

  await run(['reset-2fa', '--userName', 'ana'], dataDir, (l) => lines.push(l));
  await run(['reset-2fa', '--userName', 'ana'], dataDir, (l) => lines.push(l));
  expect(lines.slice(-2)).toEqual(['Two-factor authentication of ana is off', 'ana had no two-factor authentication']);
  const after = await openDatabase({ file: databaseFile(dataDir) });
  for (const table of ['two_factor', 'two_factor_recovery_codes', 'two_factor_challenges'] as const) {
    expect(await after.k.selectFrom(table).selectAll().execute(), table).toEqual([]);
  }
  await after.close();
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { coverStatements, POSTGRES_CANDIDATES, POSTGRES_SUITES_FILE, postgresSuites } from './postgres-suites.ts';
import { statementShape } from './setup/sql-trace.ts';

test('a statement shape ignores parameter numbers, list lengths and white space', () => {
  expect(statementShape('select *\n  from "users" where "id" in ($1, $2, $3) and "role" = $4')).toBe(
    'select * from "users" where "id" in (?…) and "role" = ?',
  );
  expect(statementShape('insert into "t" ("a", "b") values ($1, $2), ($3, $4), ($5, $6)')).toBe(
    statementShape('insert into "t" ("a", "b") values ($1, $2)'),
  );
  expect(statementShape('select 1 where "a" = $1')).not.toBe(statementShape('select 1 where "b" = $1'));
});

test('the PostgreSQL suites are the fewest that send every statement, the kept ones always among them', () => {
  const traces = [
    { file: 'test/db/a.test.ts', statements: ['s1'] },
    { file: 'test/b.test.ts', statements: ['s1', 's2', 's3'] },
    { file: 'test/c.test.ts', statements: ['s2'] },
    { file: 'test/d.test.ts', statements: ['s3', 's4'] },
    { file: 'test/e.test.ts', statements: ['s4'] },
  ];
  const chosen = coverStatements(traces, (file) => file.startsWith('test/db/'));
  expect(chosen).toEqual(['test/b.test.ts', 'test/d.test.ts', 'test/db/a.test.ts']);
  const sent = new Set(traces.filter((trace) => chosen.includes(trace.file)).flatMap((trace) => trace.statements));
  expect(sent).toEqual(new Set(traces.flatMap((trace) => trace.statements)));
});

test('a suite the last measuring run did not judge runs on PostgreSQL; POSTGRES_SUITES=all runs every candidate', () => {
  const root = mkdtempSync(join(tmpdir(), 'pg-suites-'));
  for (const file of ['test/api.test.ts', 'test/auth.test.ts', 'test/projects/new.test.ts', 'test/db/x.test.ts']) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  writeFileSync(
    join(root, POSTGRES_SUITES_FILE),
    JSON.stringify({ judged: ['test/api.test.ts', 'test/auth.test.ts', 'test/db/x.test.ts'], chosen: ['test/api.test.ts'], statements: 2 }),
  );
  expect(postgresSuites(root, {})).toEqual(['test/api.test.ts', 'test/db/x.test.ts', 'test/projects/new.test.ts']);
  expect(postgresSuites(root, { POSTGRES_SUITES: 'all' })).toEqual(POSTGRES_CANDIDATES);
});

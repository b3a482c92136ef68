// Which unit suites run a second time on PostgreSQL: `npm run test:postgres-suites` runs every
// candidate suite (test/postgres-suites.ts) on PostgreSQL with SQL_TRACE_DIR set, so that each
// file records the statement shapes it sent (test/setup/sql-trace.ts), then picks the fewest
// files that together send every shape any of them sent (greedy set cover; the engine's own
// suites always stay) and writes them to test/postgres-suites.json. A suite added later runs on
// PostgreSQL until the next such run has judged it. Run it after adding queries.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALWAYS_ON_POSTGRES, coverStatements, POSTGRES_SUITES_FILE, type PostgresSuites, type Trace } from '../test/postgres-suites.ts';

const ROOT = join(import.meta.dirname, '..');

const dir = mkdtempSync(join(tmpdir(), 'sql-trace-'));
try {
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'postgres', '--reporter=dot'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, SQL_TRACE_DIR: dir, POSTGRES_SUITES: 'all' },
  });
  if (run.status !== 0) throw new Error('The PostgreSQL run failed: the suites were not judged (fix the failures first).');
  const traces = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Trace);
  const all = new Set(traces.flatMap((trace) => trace.statements));
  const chosen = coverStatements(traces, (file) => ALWAYS_ON_POSTGRES.some((prefix) => file.startsWith(prefix)));
  const result: PostgresSuites = {
    judged: traces.map((trace) => trace.file).sort(),
    chosen,
    statements: all.size,
  };
  writeFileSync(join(ROOT, POSTGRES_SUITES_FILE), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`${chosen.length} of ${traces.length} suites send all ${all.size} statement shapes: written to ${POSTGRES_SUITES_FILE}.`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The unit suites that run a second time on PostgreSQL (vitest.config.ts, the `postgres` project).
// Candidates are the suites of everything that keeps data; of them, the ones in
// test/postgres-suites.json's `chosen` run — the fewest that together send PostgreSQL every
// statement shape the candidates send (scripts/postgres-suites.ts measures it) — plus any
// candidate that run has not judged yet (a new suite), plus the engine's own suites always.
// POSTGRES_SUITES=all runs every candidate.
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const POSTGRES_CANDIDATES = [
  'test/api.test.ts',
  'test/auth.test.ts',
  'test/contact.test.ts',
  'test/contact-inbox.test.ts',
  'test/forms.test.ts',
  'test/key-rotation.test.ts',
  'test/openapi.test.ts',
  'test/paging.test.ts',
  'test/scopes.test.ts',
  'test/user-branding.test.ts',
  'test/pdf/routes.test.ts',
  'test/pdf/report-pages.test.ts',
  'test/pdf/projects.test.ts',
  'test/db/**/*.test.ts',
  'test/projects/**/*.test.ts',
  'test/notifications/**/*.test.ts',
  'test/calendar/**/*.test.ts',
  'test/mail-preferences/**/*.test.ts',
  'test/mail/**/*.test.ts',
  'test/audit/**/*.test.ts',
  'test/my-account/**/*.test.ts',
  'test/two-factor/**/*.test.ts',
  'test/account-links/**/*.test.ts',
  'test/cms/webhook.test.ts',
  'test/metrics.test.ts',
  'test/bench/**/*.test.ts',
  'test/search/**/*.test.ts',
];

/** The engine's own suites (migrations, upgrades, the query layer): on PostgreSQL whatever they send. */
export const ALWAYS_ON_POSTGRES = ['test/db/'];

export const POSTGRES_SUITES_FILE = 'test/postgres-suites.json';

export type PostgresSuites = {
  /** Every candidate the last measuring run saw. */
  judged: string[];
  /** The ones that run on PostgreSQL. */
  chosen: string[];
  /** How many statement shapes they send between them. */
  statements: number;
};

export function postgresSuites(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = join(root, POSTGRES_SUITES_FILE);
  if (env.POSTGRES_SUITES === 'all' || !existsSync(file)) return POSTGRES_CANDIDATES;
  const measured = JSON.parse(readFileSync(file, 'utf8')) as PostgresSuites;
  const judged = new Set(measured.judged);
  const candidates = globSync(POSTGRES_CANDIDATES, { cwd: root }).sort();
  return candidates.filter(
    (candidate) =>
      measured.chosen.includes(candidate) || !judged.has(candidate) || ALWAYS_ON_POSTGRES.some((prefix) => candidate.startsWith(prefix)),
  );
}

export type Trace = { file: string; statements: string[] };

/** The fewest files whose statements cover every statement of `traces` (the kept ones first). */
export function coverStatements(traces: readonly Trace[], kept: (file: string) => boolean): string[] {
  const uncovered = new Set(traces.flatMap((trace) => trace.statements));
  const chosen: string[] = [];
  const take = (trace: Trace) => {
    chosen.push(trace.file);
    for (const statement of trace.statements) uncovered.delete(statement);
  };
  const rest = [...traces].sort((a, b) => a.file.localeCompare(b.file));
  for (const trace of rest.filter((trace) => kept(trace.file))) take(trace);
  let left = rest.filter((trace) => !kept(trace.file));
  while (uncovered.size > 0) {
    let best: Trace | undefined;
    let bestGain = 0;
    for (const trace of left) {
      const gain = trace.statements.filter((statement) => uncovered.has(statement)).length;
      if (gain > bestGain) [best, bestGain] = [trace, gain];
    }
    if (!best) break;
    take(best);
    left = left.filter((trace) => trace !== best);
  }
  return chosen.sort();
}

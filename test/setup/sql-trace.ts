// The PostgreSQL project's coverage tool (scripts/postgres-suites.ts): with SQL_TRACE_DIR set, every
// statement a test file sends to PostgreSQL is written, in a normal form, to
// SQL_TRACE_DIR/<test file>.json when the file ends. Unset, this file does nothing. It patches
// `pg`'s one entry point (every pool query goes through Client#query); the module is loaded
// once per worker process, so the patch is made once and each file swaps in its own set.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const dir = process.env.SQL_TRACE_DIR;

type Traced = { __sqlTrace?: Set<string> };
const globals = globalThis as typeof globalThis & Traced & { __sqlTracePatched?: boolean };

/**
 * One shape per statement: parameters numbered by Kysely ($1, $2 …) become `?`, a list of them
 * (IN lists, a multi-row VALUES) counts once whatever its length, white space is one space.
 */
export function statementShape(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '?')
    .replace(/\?(?:, \?)+/g, '?…')
    .replace(/\(\?…?\)(?:, \(\?…?\))+/g, '(?…)')
    .trim();
}

if (dir) {
  if (!globals.__sqlTracePatched) {
    globals.__sqlTracePatched = true;
    const { default: pg } = await import('pg');
    const query = pg.Client.prototype.query as (this: unknown, ...args: unknown[]) => unknown;
    pg.Client.prototype.query = function traced(this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      // The test helpers' own CREATE/DROP DATABASE (a fresh name each time) are not the site's.
      if (text && !/^\s*(CREATE|DROP) DATABASE/i.test(text)) globals.__sqlTrace?.add(statementShape(text));
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
  }
  let file = '';
  // vitest hands a hook its context first (a destructuring pattern), the file second.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    file = relative(process.cwd(), (suite as { filepath?: string }).filepath ?? '');
    globals.__sqlTrace = new Set();
  });
  afterAll(() => {
    const statements = [...(globals.__sqlTrace ?? [])].sort();
    globals.__sqlTrace = undefined;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${file.replaceAll('/', '__')}.json`), JSON.stringify({ file, statements }));
  });
}

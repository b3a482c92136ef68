// One file per migration (server/db/migrations/NNNN-name.ts), numbered from 1 without a gap,
// each declaring its own number as its version, listed in that order by server/db/migrations.ts;
// applied once each, in order, on either engine.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, inject, test } from 'vitest';
import { migrate, openDatabase, type Db } from '../../server/db/index.ts';
import { MIGRATIONS, type Migration } from '../../server/db/migrations.ts';
import { ROOT } from '../../scripts/build-state.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/postgres.ts';

const FOLDER = join(ROOT, 'server', 'db', 'migrations');
/** What the folder holds besides the migrations. */
const NOT_MIGRATIONS = ['migration.ts'];
const MIGRATION_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.ts$/;

function migrationFiles(): string[] {
  return readdirSync(FOLDER)
    .filter((name) => !NOT_MIGRATIONS.includes(name))
    .sort();
}

function isMigration(value: unknown): value is Migration {
  const m = value as Partial<Migration> | null;
  return typeof m === 'object' && m !== null && typeof m.version === 'number' && typeof m.up === 'function';
}

/** The migrations a file exports. */
async function exportedBy(file: string): Promise<Migration[]> {
  const module = (await import(join(FOLDER, file))) as Record<string, unknown>;
  return Object.values(module).filter(isMigration);
}

/** A fresh database of the run's engine with no migration applied yet. */
async function unmigratedDatabase(): Promise<Db> {
  if (TEST_ENGINE === 'sqlite') return openDatabase({ file: ':memory:', migrate: false });
  return openDatabase({ url: await createTestDatabase(inject('postgresUrl')), poolMax: 2, migrate: false });
}

test('every file of server/db/migrations/ is a migration named NNNN-name.ts', () => {
  const misnamed = migrationFiles().filter((name) => !MIGRATION_FILE.test(name));
  expect(misnamed).toEqual([]);
});

test('the migration files are numbered consecutively from 1, with no gap and no number twice', () => {
  const numbers = migrationFiles().map((name) => Number(MIGRATION_FILE.exec(name)?.[1]));
  expect(numbers.length).toBeGreaterThan(0);
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
});

test("each migration file exports one migration, whose version is the file's number", async () => {
  for (const file of migrationFiles()) {
    const migrations = await exportedBy(file);
    expect(migrations, file).toHaveLength(1);
    expect(migrations[0]!.version, file).toBe(Number(MIGRATION_FILE.exec(file)?.[1]));
  }
});

test('server/db/migrations.ts lists every migration file, in version order', async () => {
  const files = await Promise.all(migrationFiles().map(async (file) => (await exportedBy(file))[0]));
  expect(MIGRATIONS.map((m) => m.version)).toEqual(files.map((m) => m!.version));
  for (const [i, migration] of MIGRATIONS.entries()) expect(migration, `MIGRATIONS[${i}]`).toBe(files[i]);
});

test(`an empty database gets each migration exactly once, in version order, and a second run applies nothing (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    const ran: number[] = [];
    const counted = MIGRATIONS.map((m) => ({
      ...m,
      up: (k: Parameters<Migration['up']>[0], engine: Db['engine']) => {
        ran.push(m.version);
        return m.up(k, engine);
      },
    }));
    const versions = MIGRATIONS.map((m) => m.version);
    expect(await migrate(db, counted)).toEqual(versions);
    expect(ran).toEqual(versions);
    const recorded = await sql<{ version: number; name: string }>`SELECT version, name FROM schema_migrations ORDER BY version`.execute(
      db.k,
    );
    expect(recorded.rows.map((r) => ({ version: Number(r.version), name: r.name }))).toEqual(
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );

    expect(await migrate(db, counted)).toEqual([]);
    expect(ran).toEqual(versions);
  } finally {
    await db.close();
  }
});

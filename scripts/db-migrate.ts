// `npm run db:migrate`: applies the pending migrations to the site's database and says which —
// DATABASE_URL (PostgreSQL) when set, else DATA_DIR/site.db. The site does the same at every
// start (one instance at a time); this is for ops who migrate before a deploy.
import { databaseFile, migrate, openDatabase } from '../server/db/index.ts';
import { MIGRATIONS } from '../server/db/migrations.ts';

const url = process.env.DATABASE_URL || undefined;
const target = url ? `PostgreSQL (${new URL(url).host}${new URL(url).pathname})` : databaseFile(process.env.DATA_DIR || './data');
try {
  const db = await openDatabase({ url, file: databaseFile(process.env.DATA_DIR || './data'), poolMax: 1, migrate: false });
  try {
    const applied = await migrate(db);
    const names = MIGRATIONS.filter((m) => applied.includes(m.version)).map((m) => `  ${m.version} ${m.name}`);
    console.log(
      applied.length ? `Applied to ${target}:\n${names.join('\n')}` : `${target} is up to date (version ${MIGRATIONS.at(-1)!.version}).`,
    );
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(`Could not migrate ${target}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

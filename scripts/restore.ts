// `npm run restore -- <file>`: puts a backup made by `npm run backup` in place of the embedded
// SQLite database (DATA_DIR/site.db). The backup is checked first; the site must be stopped (a
// restore refuses while any process has the database open); the database it replaces is kept
// as site.db.before-restore-<time>. Start the site afterwards: it migrates an older backup.
import { resolve } from 'node:path';
import { BackupError, PG_RESTORE_COMMAND, restoreDatabase } from '../server/db/backup.ts';
import { databaseFile, isPostgresUrl } from '../server/db/index.ts';

const USAGE = `Usage: npm run restore -- <backup file>
Replaces DATA_DIR/site.db (DATA_DIR defaults to ./data) with the backup; stop the site first.
The replaced database is kept beside it as site.db.before-restore-<time>.`;

const args = process.argv.slice(2);
if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
  console.log(USAGE);
  process.exit(args.length === 1 ? 0 : 2);
}
if (isPostgresUrl(process.env.DATABASE_URL || undefined)) {
  console.error(`DATABASE_URL is PostgreSQL: restore a pg_dump with
  ${PG_RESTORE_COMMAND}
(docs/operating.md, "Backups").`);
  process.exit(2);
}
const live = databaseFile(process.env.DATA_DIR || './data');
try {
  const result = await restoreDatabase(resolve(args[0]!), live);
  console.log(
    `Restored ${result.users} users (schema ${result.version}) into ${live}.` +
      (result.replaced ? ` The database it replaced is kept as ${result.replaced}.` : '') +
      ' Start the site now.',
  );
} catch (error) {
  console.error(error instanceof BackupError ? error.message : `The restore failed: ${(error as Error).message}`);
  process.exit(1);
}

// `npm run restore -- <file>`: puts a backup made by `npm run backup` in place of the embedded
// SQLite database (DATA_DIR/site.db). The backup is checked first; the site must be stopped (a
// restore refuses while any process has the database open); the database it replaces is kept
// as site.db.before-restore-<time>. Every sign-in the backup kept is ended: a session ended
// after the backup must not come back with it. Start the site afterwards: it migrates an older
// backup. On PostgreSQL it names pg_restore, and `npm run restore -- --end-sessions` ends the
// sign-ins of the database pg_restore brought back.
import { resolve } from 'node:path';
import { BackupError, endEverySignIn, PG_RESTORE_COMMAND, restoreDatabase } from '../server/db/backup.ts';
import { databaseFile, isPostgresUrl, openDatabase } from '../server/db/index.ts';

const USAGE = `Usage: npm run restore -- <backup file>
Replaces DATA_DIR/site.db (DATA_DIR defaults to ./data) with the backup; stop the site first.
The replaced database is kept beside it as site.db.before-restore-<time>. Every session the
backup kept is ended: everyone signs in again.

On PostgreSQL (DATABASE_URL), after pg_restore: npm run restore -- --end-sessions`;

/** What a restore says of the sessions it ended. */
function sessionsLine(ended: number): string {
  return (
    `Ended every session the backup kept (${ended}): everyone signs in again, ` +
    'so that no session ended after the backup (a sign-out, a password change, a disabled user) comes back.'
  );
}

const args = process.argv.slice(2);
if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
  console.log(USAGE);
  process.exit(args.length === 1 ? 0 : 2);
}
const postgres = isPostgresUrl(process.env.DATABASE_URL || undefined);
if (args[0] === '--end-sessions') {
  if (!postgres) {
    console.error('--end-sessions is for PostgreSQL (DATABASE_URL), after pg_restore: a restore of site.db ends the sessions itself.');
    process.exit(2);
  }
  const db = await openDatabase({ url: process.env.DATABASE_URL, migrate: false, poolMax: 1 });
  try {
    console.log(sessionsLine(await endEverySignIn(db)));
  } catch (error) {
    console.error(`Ending the sessions failed: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await db.close();
  }
} else if (postgres) {
  console.error(`DATABASE_URL is PostgreSQL: restore a pg_dump with
  ${PG_RESTORE_COMMAND}
then end every session it brought back with
  npm run restore -- --end-sessions
(docs/operating.md, "Backups").`);
  process.exit(2);
} else {
  const live = databaseFile(process.env.DATA_DIR || './data');
  try {
    const result = await restoreDatabase(resolve(args[0]!), live);
    console.log(
      `Restored ${result.users} users (schema ${result.version}) into ${live}.` +
        (result.replaced ? ` The database it replaced is kept as ${result.replaced}.` : '') +
        `\n${sessionsLine(result.sessionsEnded)}\nStart the site now.`,
    );
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : `The restore failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

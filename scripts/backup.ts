// `npm run backup [-- <file>]`: an online, consistent copy of the embedded SQLite database
// (DATA_DIR/site.db) while the site serves, checked after it is written; by default into
// DATA_DIR/backups/site-<UTC time>.db. Never overwrites a file. PostgreSQL (DATABASE_URL) is
// backed up with its own tool: the command is printed (docs/operating.md, "Backups").
import { resolve } from 'node:path';
import { BackupError, backupDatabase, defaultBackupFile, PG_DUMP_COMMAND, PG_RESTORE_COMMAND } from '../server/db/backup.ts';
import { databaseFile, isPostgresUrl } from '../server/db/index.ts';

const USAGE = `Usage: npm run backup [-- <file>]
Copies DATA_DIR/site.db (DATA_DIR defaults to ./data) while the site runs; by default to
DATA_DIR/backups/site-<time>.db. Restore with: npm run restore -- <file>`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h') || args.length > 1) {
  console.log(USAGE);
  process.exit(args.length > 1 ? 2 : 0);
}
if (isPostgresUrl(process.env.DATABASE_URL || undefined)) {
  console.error(`DATABASE_URL is PostgreSQL: back it up with PostgreSQL's own tool, e.g.
  ${PG_DUMP_COMMAND}
and restore with
  ${PG_RESTORE_COMMAND}
(docs/operating.md, "Backups").`);
  process.exit(2);
}
const dataDir = process.env.DATA_DIR || './data';
const target = resolve(args[0] ?? defaultBackupFile(dataDir));
try {
  const facts = await backupDatabase(databaseFile(dataDir), target);
  console.log(
    `Backed up ${databaseFile(dataDir)} to ${facts.file}: ${facts.bytes} bytes, ${facts.users} users, schema ${facts.version}, integrity ok.`,
  );
} catch (error) {
  console.error(error instanceof BackupError ? error.message : `The backup failed: ${(error as Error).message}`);
  process.exit(1);
}

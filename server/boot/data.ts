// Phase 2, data: the database, the change feed the instances keep their caches in step by, and
// the audit log every domain records through.
import { createAuditLog } from '../audit/log.ts';
import type { Audit } from '../audit/types.ts';
import { createChangeFeed } from '../db/changes.ts';
import { databaseFile, openDatabase } from '../db/index.ts';
import { moveUploadsIntoDatabase } from '../uploads/images.ts';
import type { Base } from './base.ts';
import type { AppDeps } from './deps.ts';

export async function bootData(deps: AppDeps, { config, logger, cms }: Base) {
  const db =
    deps.db ??
    (await openDatabase({
      url: config.DATABASE_URL,
      file: databaseFile(config.DATA_DIR),
      poolMax: config.DATABASE_POOL_MAX,
      onPoolError: (error) => logger.warn({ err: error }, 'a database connection failed'),
    }));
  // Files of an install from before uploads lived in the database move in (once).
  if (!deps.db) await moveUploadsIntoDatabase(db, config.DATA_DIR, logger);
  // What the instances tell each other so that their caches agree (NOTIFY, or a change counter).
  const changes = await createChangeFeed(db, { logger });
  cms?.subscribe(changes);
  // Who did what to whom and when; entries older than a year go at start and once a day.
  const auditLog = createAuditLog({ db, logger });
  auditLog.startPruning();
  // A test may listen to what is recorded instead.
  const audit: Audit = deps.audit ?? auditLog;
  return { db, changes, auditLog, audit };
}

export type Data = Awaited<ReturnType<typeof bootData>>;

import { columnTypes, type Migration } from './migration.ts';

export const auditLog: Migration = {
  version: 7,
  name: 'audit log',
  async up(db, engine) {
    const t = columnTypes(engine);
    // Who did what to whom and when (server/audit/log.ts). No foreign keys: an entry outlives
    // the user it names, and with an external API the users are the API's.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('actor', t.nocase)
      .addColumn('target', t.nocase)
      .addColumn('ip', 'text')
      .addColumn('detail', 'text')
      .execute();
    // Newest first, whole or by action, actor or target; `at` also bounds the date filter and the pruning.
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at desc', 'id desc']).execute();
    await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'at desc']).execute();
    await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'at desc']).execute();
    await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target', 'at desc']).execute();
  },
};

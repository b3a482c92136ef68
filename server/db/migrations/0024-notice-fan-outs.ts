import { columnTypes, type Migration } from './migration.ts';

export const noticeFanOuts: Migration = {
  version: 24,
  name: 'notices queued to be fanned out to their recipients a batch at a time',
  async up(db, engine) {
    const t = columnTypes(engine);
    // A notice of a project (or, with notice NULL, its open pages to be read again), queued by
    // the request that caused it and told to its audience a batch at a time by whichever
    // instance claims it (server/fan-out/, docs/decisions/052). The cursor (audience_group,
    // audience_after) moves in the transaction that writes a batch: a batch is told once.
    await db.schema
      .createTable('notice_fanouts')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      // JSON: what the notice says (server/projects/notices.ts NoticeContent); NULL: only the live pages.
      .addColumn('notice', 'text')
      // JSON: which of the project's people (server/projects/audience.ts).
      .addColumn('audience', 'text', (c) => c.notNull())
      // A held notice's ref (a milestone's toggles): withdrawn with it.
      .addColumn('ref', 'text')
      .addColumn('audience_group', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('audience_after', t.nocase, (c) => c.notNull().defaultTo(''))
      // pending, failed (given up after the last attempt); a row told to everyone is deleted.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('run_at', t.bigint, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('claimed_at', t.bigint)
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notice_fanouts_due').on('notice_fanouts').columns(['status', 'run_at']).execute();
    await db.schema.createIndex('notice_fanouts_ref').on('notice_fanouts').column('ref').execute();
  },
};

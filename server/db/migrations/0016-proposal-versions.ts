import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const proposalVersions: Migration = {
  version: 16,
  name: 'every proposal sent is kept as a version, with who answered it, when and from where',
  async up(db, engine) {
    const t = columnTypes(engine);
    await db.schema
      .createTable('project_proposals')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('fee', t.bigint, (c) => c.notNull())
      .addColumn('timeline', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addColumn('sent_by', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('open', 'accepted', 'declined', 'superseded', 'withdrawn')`))
      .addColumn('answered_at', 'text')
      .addColumn('answered_by', 'text')
      .addColumn('answered_ip', 'text')
      .addUniqueConstraint('project_proposals_version', ['project_id', 'version'])
      .execute();
    // The proposal each project holds today is its first version; its state says how it was answered.
    await sql`INSERT INTO project_proposals (project_id, version, scope, fee, timeline, sent_at, sent_by, status, answered_at, answered_by)
      SELECT id, 1, proposal_scope, COALESCE(proposal_fee, 0), COALESCE(proposal_timeline, ''), proposal_sent_at, COALESCE(proposal_sent_by, ''),
        CASE WHEN state = 'proposal' THEN 'open'
             WHEN state = 'declined' THEN 'declined'
             WHEN state IN ('active', 'delivered', 'closed') THEN 'accepted'
             ELSE 'withdrawn' END,
        proposal_answered_at,
        CASE WHEN proposal_answered_at IS NOT NULL AND state IN ('declined', 'active', 'delivered', 'closed') THEN owner END
      FROM projects WHERE proposal_sent_at IS NOT NULL AND proposal_scope IS NOT NULL`.execute(db);
  },
};

import type { Migration } from './migration.ts';

export const milestoneEvents: Migration = {
  version: 12,
  name: 'history events name their milestone (repeated toggles collapse)',
  async up(db) {
    // Which milestone a milestone_done / milestone_reopened event is about (server/projects/service.ts).
    await db.schema.alterTable('project_events').addColumn('milestone_id', 'integer').execute();
  },
};

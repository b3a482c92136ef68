import { sql } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const projects: Migration = {
  version: 4,
  name: 'projects of the private area: briefs, proposals, experts, milestones, messages, documents, history; expert profiles',
  async up(db, engine) {
    const t = columnTypes(engine);
    // People are named by user name (no foreign key: with an external API the users are the
    // API's) with the display name as it was when they acted, like the header of a letter.
    await db.schema
      .createTable('projects')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('practice', 'text', (c) => c.notNull().check(sql`practice IN ('digital', 'data', 'sustainability', 'compliance')`))
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state IN ('brief', 'proposal', 'active', 'delivered', 'closed', 'declined', 'cancelled')`),
      )
      .addColumn('owner', t.nocase, (c) => c.notNull())
      .addColumn('owner_name', 'text', (c) => c.notNull())
      .addColumn('owner_role', 'text', (c) => c.notNull())
      .addColumn('organisation', 'text')
      .addColumn('budget', 'text')
      .addColumn('wished_start', 'text')
      .addColumn('deadline', 'text')
      .addColumn('procurement_ref', 'text')
      .addColumn('proposal_scope', 'text')
      .addColumn('proposal_fee', t.bigint)
      .addColumn('proposal_timeline', 'text')
      .addColumn('proposal_sent_at', 'text')
      .addColumn('proposal_sent_by', 'text')
      .addColumn('proposal_answered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('projects_created').on('projects').columns(['created_at desc', 'id desc']).execute();
    await db.schema.createIndex('projects_owner').on('projects').column('owner').execute();
    await db.schema.createIndex('projects_state').on('projects').column('state').execute();
    await db.schema
      .createTable('project_experts')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('added_at', 'text', (c) => c.notNull())
      .addColumn('added_by', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_experts_pk', ['project_id', 'user_name'])
      .execute();
    await db.schema.createIndex('project_experts_user').on('project_experts').column('user_name').execute();
    await db.schema
      .createTable('project_milestones')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('due_date', 'text')
      .addColumn('done_at', 'text')
      .addColumn('done_by', 'text')
      .addColumn('done_by_name', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_milestones_project').on('project_milestones').column('project_id').execute();
    await db.schema
      .createTable('project_messages')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('author', t.nocase, (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('author_role', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_messages_project').on('project_messages').columns(['project_id', 'id']).execute();
    await db.schema
      .createTable('project_reads')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('last_read_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_reads_pk', ['project_id', 'user_name'])
      .execute();
    await db.schema
      .createTable('project_documents')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('data', t.blob, (c) => c.notNull())
      .addColumn('uploaded_by', t.nocase, (c) => c.notNull())
      .addColumn('uploaded_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_documents_project').on('project_documents').column('project_id').execute();
    await db.schema
      .createTable('project_events')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor', t.nocase, (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_state', 'text')
      .addColumn('to_state', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('project_events_project').on('project_events').columns(['project_id', 'id']).execute();
    await db.schema
      .createTable('expertise')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('practices', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('day_rate', 'integer')
      .addColumn('availability', 'text', (c) =>
        c
          .notNull()
          .defaultTo('available')
          .check(sql`availability IN ('available', 'busy')`),
      )
      .addColumn('busy_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

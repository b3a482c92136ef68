import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { columnTypes, type Migration } from './migration.ts';

export const mailPreferences: Migration = {
  version: 22,
  name: 'e-mail preferences, one-click unsubscribe headers, milestone reminders and the job table',
  async up(db, engine) {
    const t = columnTypes(engine);
    // A user's choice per topic (shared/mail-preferences.ts); no row: every notice at once.
    // digest_after: the last notification a digest of theirs told (server/jobs/digest.ts).
    const mode = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('immediate');
    await db.schema
      .createTable('mail_preferences')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('messages', 'text', mode)
      .addColumn('states', 'text', mode)
      .addColumn('milestones', 'text', mode)
      .addColumn('documents', 'text', mode)
      .addColumn('reminders', 'text', mode)
      .addColumn('reminder_days', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('digest_after', t.bigint, (c) => c.notNull().defaultTo(0))
      // Per topic, the notification after which it counts in a digest (JSON): a topic moved into
      // the digest tells what comes next, never what was e-mailed (or not wanted) before.
      .addColumn('digest_starts', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Headers of a notice (List-Unsubscribe, List-Unsubscribe-Post: RFC 8058), as JSON.
    await db.schema.alterTable('mail_outbox').addColumn('headers', 'text').execute();
    // One reminder per milestone, person, kind and due day: a job run twice reminds once, a
    // milestone moved to another day is reminded of again.
    await db.schema
      .createTable('milestone_reminders')
      .addColumn('milestone_id', 'integer', (c) => c.notNull().references('project_milestones.id').onDelete('cascade'))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('due_date', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('milestone_reminders_pk', ['milestone_id', 'user_name', 'kind', 'due_date'])
      .execute();
    await db.schema.createIndex('milestone_reminders_user').on('milestone_reminders').column('user_name').execute();
    // The reminders' daily look: milestones not done, by due day.
    await db.schema
      .createIndex('project_milestones_due')
      .on('project_milestones')
      .column('due_date')
      .where(sql.ref('done_at'), 'is', null)
      .execute();
    // The jobs (server/jobs/): one row per run, named by its key ('digest:2026-11-27'), claimed
    // by one instance at a time, retried with growing pauses.
    await db.schema
      .createTable('jobs')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('run_at', t.bigint, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('claimed_at', t.bigint)
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('done_at', 'text')
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
  },
};

import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/** The tables whose rows a project counts (trigger names are built from them). */
const COUNTED = [
  ['project_events', 'event_count'],
  ['project_messages', 'message_count'],
] as const;

export const projectCounts: Migration = {
  version: 15,
  name: 'a project counts its history and its conversation (kept by triggers)',
  async up(db, engine) {
    // A page of a project's history or conversation says how long it is: counting 50,000 rows of
    // the index on every page cost more than reading the page (scripts/bench/scale.ts). The
    // database keeps the counts with the project, whoever writes the rows.
    for (const [table, column] of COUNTED) {
      await db.schema
        .alterTable('projects')
        .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE projects SET ${sql.ref(column)} = (SELECT count(*) FROM ${sql.table(table)} t WHERE t.project_id = projects.id)`.execute(
        db,
      );
      const name = (event: string) => sql.raw(`${table}_${event}_counted`);
      if (engine === 'sqlite') {
        await sql`CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${sql.table(table)} BEGIN
          UPDATE projects SET ${sql.ref(column)} = ${sql.ref(column)} + 1 WHERE id = NEW.project_id; END`.execute(db);
        await sql`CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${sql.table(table)} BEGIN
          UPDATE projects SET ${sql.ref(column)} = ${sql.ref(column)} - 1 WHERE id = OLD.project_id; END`.execute(db);
        continue;
      }
      // PostgreSQL: once per statement, over its rows (a bulk insert updates each project once).
      for (const [event, rows, sign] of [
        ['insert', 'NEW', '+'],
        ['delete', 'OLD', '-'],
      ] as const) {
        await sql`CREATE FUNCTION ${name(event)}() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE projects SET ${sql.ref(column)} = ${sql.ref(column)} ${sql.raw(sign)} changed.n
              FROM (SELECT project_id, count(*) AS n FROM changed_rows GROUP BY project_id) changed
              WHERE projects.id = changed.project_id;
            RETURN NULL;
          END $$`.execute(db);
        await sql`CREATE TRIGGER ${name(event)} AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
          REFERENCING ${sql.raw(rows)} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name(event)}()`.execute(db);
      }
    }
  },
};

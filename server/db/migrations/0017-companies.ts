import { sql } from 'kysely';
import { canonicalIdentity } from '../../../shared/identity.ts';
import { columnTypes, type Migration } from './migration.ts';

export const companies: Migration = {
  version: 17,
  name: 'client companies and organisations: members, managers, and the projects they own together',
  async up(db, engine) {
    const t = columnTypes(engine);
    await db.schema
      .createTable('companies')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('CLI', 'ORG')`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One company per user (the primary key): a user belongs to exactly one.
    await db.schema
      .createTable('company_members')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('manager', 'member')`))
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('company_members_company').on('company_members').columns(['company_id', 'role']).execute();
    await db.schema
      .alterTable('projects')
      .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('projects_company').on('projects').columns(['company_id', 'created_at']).execute();

    // Every client and organisation user, and every owner of a project the site still has
    // (an external API's users are not in the users table), becomes the manager of a company of
    // their own, named by the organisation of their latest project that has one, else by them.
    const people = await sql<{ user_name: string; role: string; name: string }>`
      SELECT user_name, role, trim(name || ' ' || last_name) AS name FROM users WHERE role IN ('CLI', 'ORG')
      UNION
      SELECT owner, MAX(owner_role), MAX(owner_name) FROM projects
        WHERE owner <> '~deleted' AND owner_role IN ('CLI', 'ORG') AND owner NOT IN (SELECT user_name FROM users) GROUP BY owner`.execute(
      db,
    );
    const organisations = await sql<{ owner: string; organisation: string }>`
      SELECT p.owner, p.organisation FROM projects p
      WHERE p.organisation IS NOT NULL AND trim(p.organisation) <> ''
        AND p.id = (SELECT MAX(q.id) FROM projects q WHERE q.owner = p.owner AND q.organisation IS NOT NULL AND trim(q.organisation) <> '')`.execute(
      db,
    );
    const organisationOf = new Map(organisations.rows.map((r) => [canonicalIdentity(r.owner), r.organisation.trim()]));
    const at = new Date().toISOString();
    for (const person of people.rows) {
      const name = organisationOf.get(canonicalIdentity(person.user_name)) ?? (person.name.trim() || person.user_name);
      const company = await db
        .insertInto('companies')
        .values({ name, kind: person.role, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('company_members')
        .values({ user_name: person.user_name, company_id: company.id, role: 'manager', joined_at: at })
        .execute();
    }
    await sql`UPDATE projects SET company_id = (SELECT m.company_id FROM company_members m WHERE m.user_name = projects.owner)`.execute(db);
  },
};

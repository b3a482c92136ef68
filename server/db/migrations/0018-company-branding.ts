import { sql } from 'kysely';
import type { Migration } from './migration.ts';

export const companyBranding: Migration = {
  version: 18,
  name: "a client's navbar branding belongs to their company: every person of it sees it",
  async up(db) {
    await db.schema
      .createTable('company_branding')
      .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
      .addColumn('color', 'text')
      .addColumn('logo', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Each client and organisation manages a company of their own since migration 17: their
    // branding becomes that company's, and their own row goes (it would never be read again).
    await sql`INSERT INTO company_branding (company_id, color, logo, updated_at)
      SELECT m.company_id, b.color, b.logo, b.updated_at FROM branding b JOIN company_members m ON m.user_name = b.user_name`.execute(db);
    await sql`DELETE FROM branding WHERE user_name IN (SELECT user_name FROM company_members)`.execute(db);
  },
};

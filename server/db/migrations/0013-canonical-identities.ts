import { sql } from 'kysely';
import { canonicalIdentity } from '../../../shared/identity.ts';
import type { AnyDb, Engine, Migration } from './migration.ts';

/**
 * The columns that name a user (or hold an address) besides users' own: put in canonical form
 * with them, so that every comparison of stored names is a comparison of canonical forms.
 */
const IDENTITY_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['branding', 'user_name'],
  ['uploads', 'owner'],
  ['sessions', 'user_name'],
  ['projects', 'owner'],
  ['projects', 'proposal_sent_by'],
  ['project_experts', 'user_name'],
  ['project_experts', 'added_by'],
  ['project_milestones', 'done_by'],
  ['project_messages', 'author'],
  ['project_reads', 'user_name'],
  ['project_documents', 'uploaded_by'],
  ['project_events', 'actor'],
  ['expertise', 'user_name'],
  ['user_locales', 'user_name'],
  ['audit_log', 'actor'],
  ['audit_log', 'target'],
  ['deletion_requests', 'user_name'],
  ['deletion_requests', 'decided_by'],
  ['two_factor', 'user_name'],
  ['two_factor_recovery_codes', 'user_name'],
  ['two_factor_challenges', 'user_name'],
  ['account_links', 'user_name'],
  ['account_links', 'new_email'],
];

/** Rewrites every value of the column that is not in its canonical form; names the value it cannot rewrite. */
async function canonicalColumn(db: AnyDb, engine: Engine, table: string, column: string): Promise<void> {
  // Compared byte for byte: the column's own collation (NOCASE, citext) would take "Ana" for "ana".
  const exact = engine === 'postgres' ? sql`${sql.ref(column)}::text` : sql`${sql.ref(column)} COLLATE BINARY`;
  const { rows } = await sql<{
    value: string;
  }>`SELECT DISTINCT ${exact} AS value FROM ${sql.table(table)} WHERE ${sql.ref(column)} IS NOT NULL`.execute(db);
  for (const { value } of rows) {
    const canonical = canonicalIdentity(value);
    if (canonical === value) continue;
    try {
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${canonical} WHERE ${exact} = ${value}`.execute(db);
    } catch (error) {
      throw new Error(
        `${table}.${column}: ${JSON.stringify(value)} cannot become ${JSON.stringify(canonical)} (another row holds it already): ` +
          'remove one of the two rows, then start again',
        { cause: error },
      );
    }
  }
}

export const canonicalIdentities: Migration = {
  version: 13,
  name: 'user names and e-mail addresses in their canonical form (NFKC, lower case)',
  async up(db, engine) {
    // Two users whose names (or addresses) are one name written two ways cannot both stay: the
    // migration stops, naming them, and an operator decides which one keeps it.
    const users = await db.selectFrom('users').select(['id', 'user_name', 'email']).orderBy('id').execute();
    const clashes: string[] = [];
    for (const column of ['user_name', 'email'] as const) {
      const seen = new Map<string, { id: number; value: string }>();
      for (const row of users as { id: number; user_name: string; email: string | null }[]) {
        const value = row[column];
        if (value === null) continue;
        const canonical = canonicalIdentity(value);
        const first = seen.get(canonical);
        if (first) {
          clashes.push(
            `users ${first.id} (${column} ${JSON.stringify(first.value)}) and ${row.id} (${column} ${JSON.stringify(value)}) are both ${JSON.stringify(canonical)}`,
          );
        } else seen.set(canonical, { id: row.id, value });
      }
    }
    if (clashes.length > 0) {
      throw new Error(
        `User names and e-mail addresses must be unique once normalised (NFKC, lower case), and these are not: ${clashes.join('; ')}. ` +
          'Rename or remove one user of each pair (UPDATE users SET user_name = … / email = … WHERE id = …), then start again.',
      );
    }
    for (const [table, column] of [['users', 'user_name'], ['users', 'email'], ...IDENTITY_COLUMNS] as const) {
      await canonicalColumn(db, engine, table, column);
    }
  },
};

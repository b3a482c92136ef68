// What both engines read and write of the search's table the same way, through the query builder.
import type { Kysely } from 'kysely';
import { SEARCH_KINDS, type SearchKind } from '../../shared/search.ts';
import type { Schema } from '../db/schema.ts';
import type { Indexed } from './engine.ts';

/** Keys deleted per statement (well under either engine's limit of parameters). */
const DELETE_BATCH = 500;

export async function indexedOf(k: Kysely<Schema>, kind: SearchKind): Promise<Map<string, Indexed>> {
  const rows = await k.selectFrom('search_documents').select(['key', 'digest', 'version']).where('kind', '=', kind).execute();
  return new Map(rows.map((row) => [row.key, { digest: row.digest, version: row.version }]));
}

export async function removeKeys(k: Kysely<Schema>, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    await k
      .deleteFrom('search_documents')
      .where('key', 'in', keys.slice(i, i + DELETE_BATCH))
      .execute();
  }
}

/** A row's kind, checked: the table is read back as input. */
export function hitOf<R extends { kind: string }>(row: R): R & { kind: SearchKind } {
  const kind = SEARCH_KINDS.find((known) => known === row.kind);
  if (!kind) throw new Error(`search_documents: unknown kind "${row.kind}"`);
  return { ...row, kind };
}

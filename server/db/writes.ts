// Which tables this process writes, told to whoever keeps reads of them (db/read-cache.ts). A
// Kysely plugin sees every insert, update and delete the query builder runs, and tells after the
// statement ran, so that no write site has to remember to. SQL written by hand (sql`…`) is read
// by its first words: SELECT is a read, INSERT INTO / UPDATE / DELETE FROM a write of the table
// named next; anything else counts as a write to every table.
import {
  AliasNode,
  DeleteQueryNode,
  InsertQueryNode,
  RawNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type QueryId,
  type RootOperationNode,
} from 'kysely';
import type { Schema } from './schema.ts';

export type TableName = keyof Schema & string;

export type WriteWatch = {
  /** Installed in the database's Kysely instance (db/index.ts). */
  plugin: KyselyPlugin;
  /** Calls `listener` after each statement of this process that wrote one of `tables`. */
  subscribe(tables: readonly TableName[], listener: () => void): void;
};

/** Every table: a statement whose tables are unknown. */
const ANY = null;

function tableOf(node: OperationNode | undefined): string | typeof ANY {
  if (node && TableNode.is(node)) return node.table.identifier.name;
  if (node && AliasNode.is(node)) return tableOf(node.node);
  return ANY;
}

/** The tables a statement writes: [] for a read, [ANY] for what cannot be told. */
function writtenBy(node: RootOperationNode): (string | typeof ANY)[] {
  if (InsertQueryNode.is(node)) return [tableOf(node.into)];
  if (UpdateQueryNode.is(node)) return [tableOf(node.table)];
  if (DeleteQueryNode.is(node)) return node.from.froms.map(tableOf);
  if (node.kind === 'SelectQueryNode') return [];
  if (RawNode.is(node)) return writtenByText(node.sqlFragments[0] ?? '');
  // Merges, DDL: possibly anything.
  return [ANY];
}

const RAW_WRITE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i;

function writtenByText(text: string): (string | typeof ANY)[] {
  if (/^\s*select\b/i.test(text)) return [];
  return [RAW_WRITE.exec(text)?.[1] ?? ANY];
}

export function createWriteWatch(): WriteWatch {
  const listeners: { tables: ReadonlySet<string>; listener: () => void }[] = [];
  // Weak: Kysely calls transformResult only for statements that ran (not for a failed one).
  const pending = new WeakMap<QueryId, (string | typeof ANY)[]>();
  const tell = (tables: (string | typeof ANY)[]) => {
    for (const { tables: watched, listener } of listeners) {
      if (tables.some((table) => table === ANY || watched.has(table))) listener();
    }
  };
  return {
    plugin: {
      transformQuery({ node, queryId }) {
        const tables = writtenBy(node);
        if (tables.length > 0) pending.set(queryId, tables);
        return node;
      },
      async transformResult({ result, queryId }) {
        const tables = pending.get(queryId);
        if (tables) tell(tables);
        return result;
      },
    },
    subscribe(tables, listener) {
      listeners.push({ tables: new Set(tables), listener });
    },
  };
}

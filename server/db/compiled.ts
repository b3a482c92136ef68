// Queries whose shape repeats on every request (the dashboards' lists), built with Kysely once per
// shape and then run with new values: building and compiling a query with a few subqueries costs
// more than running it. Each value is marked while the query is built once (a sentinel), so its
// place among the compiled parameters is known; later runs only swap the values in.
import { CompiledQuery } from 'kysely';
import type { Db } from './index.ts';
import { BoundedMap } from '../../shared/bounded-map.ts';

type Plan = { sql: string; parameters: ({ slot: string } | { value: unknown })[] };

export type SlotValues = Record<string, string | number>;

/** `slot(name)` stands for `values[name]` while the query is built. */
export type Slot = <T extends string | number>(name: string) => T;

export function preparedQueries(maxShapes = 256) {
  const plans = new BoundedMap<string, Plan>(maxShapes);
  return async function run<Row>(
    db: Db,
    shape: string,
    values: SlotValues,
    build: (slot: Slot) => { compile(): CompiledQuery<Row> },
  ): Promise<Row[]> {
    let plan = plans.get(shape);
    if (!plan) {
      const sentinels = new Map<unknown, string>();
      const slot = (<T extends string | number>(name: string): T => {
        const value = values[name];
        if (value === undefined) throw new Error(`No value for slot "${name}"`);
        const sentinel = typeof value === 'number' ? -(1_000_000_007 + sentinels.size) : `\u0000slot:${name}:${sentinels.size}`;
        sentinels.set(sentinel, name);
        return sentinel as T;
      }) as Slot;
      const compiled = build(slot).compile();
      plan = {
        sql: compiled.sql,
        parameters: compiled.parameters.map((p) => (sentinels.has(p) ? { slot: sentinels.get(p)! } : { value: p })),
      };
      plans.set(shape, plan);
    }
    const parameters = plan.parameters.map((p) => ('slot' in p ? values[p.slot] : p.value));
    const result = await db.k.executeQuery<Row>(CompiledQuery.raw(plan.sql, parameters));
    return result.rows;
  };
}

// What every migration is and the column types that differ between the engines.
import { sql, type Kysely, type RawBuilder } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

// A migration sees the database without the app's types: the schema it builds is the point.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export type Migration = { version: number; name: string; up: (db: AnyDb, engine: Engine) => Promise<void> };

/** The few types written differently per engine. Shipped migrations use them: what they say never changes. */
export function columnTypes(engine: Engine) {
  const pg = engine === 'postgres';
  return {
    /** An id the database numbers. */
    serial: pg ? sql`serial` : sql`integer`,
    /** Text compared without regard to case (user names, e-mails). */
    nocase: (pg ? sql`citext` : sql`text collate nocase`) as RawBuilder<unknown>,
    blob: pg ? sql`bytea` : sql`blob`,
    bigint: sql`bigint`,
  };
}

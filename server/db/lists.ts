// How many values one SQL statement may carry: SQLite refuses a statement past 32,766 bound
// values ("too many SQL variables"), PostgreSQL past 65,535. A list of people (an IN list, the
// rows of an insert) is cut into chunks of SQL_LIST_MAX, whatever its length: a notice to a
// company of thousands once lost every e-mail past ~1,900 recipients (docs/decisions/052).

/** Values of one IN list, or rows of one insert (a row of the outbox binds 17 values: 8,500 at most). */
export const SQL_LIST_MAX = 500;

/** The items in order, cut into lists of at most `size`. */
export function inChunks<T>(items: readonly T[], size: number = SQL_LIST_MAX): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a chunk holds at least one item, not ${size}`);
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

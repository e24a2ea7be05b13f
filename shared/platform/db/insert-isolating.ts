/**
 * True when Postgres refused a statement for the data in it: SQLSTATE class 22 (data exception:
 * a value out of a column's range, text it cannot store) or 23 (integrity constraint). The same
 * rows would be refused again; a broken connection or a down server is neither.
 */
export function isRefusedData(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

export interface IsolatedInsert<T> {
  /** Rows Postgres refused on their own, each with its error; every other row was written or is in `failed`. */
  refused: Array<{ row: T; err: unknown }>;
  /** Set when a statement failed for another reason (Postgres down): the rows not written yet, in order. */
  failed?: { rows: T[]; err: unknown };
}

/**
 * Writes `rows` with `insert` (one statement per call). When Postgres refuses a batch for its data,
 * the batch is split in halves until each refused row is alone: every other row is written, the
 * refused ones are returned (a few bad rows among n cost about 2·log2(n) statements each). Any
 * other failure stops there and returns the rows not written yet, so a caller can keep them.
 */
export async function insertIsolating<T>(rows: T[], insert: (rows: T[]) => Promise<unknown>): Promise<IsolatedInsert<T>> {
  const refused: IsolatedInsert<T>['refused'] = [];
  const queue: T[][] = rows.length ? [rows] : [];
  while (queue.length) {
    const chunk = queue.shift()!;
    try {
      await insert(chunk);
    } catch (err) {
      if (!isRefusedData(err)) return { refused, failed: { rows: [chunk, ...queue].flat(), err } };
      if (chunk.length === 1) refused.push({ row: chunk[0], err });
      else {
        const half = Math.ceil(chunk.length / 2);
        queue.unshift(chunk.slice(0, half), chunk.slice(half));
      }
    }
  }
  return { refused };
}

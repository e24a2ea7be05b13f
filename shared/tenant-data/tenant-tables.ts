import type { Knex } from 'knex';

/** Every table of the schema with a `tenant_id` column, read from information_schema (so a table added later is included). */
export async function tenantTables(db: Knex): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.column_name = 'tenant_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY 1`,
  );
  return rows.map((r: { table_name: string }) => r.table_name);
}

/**
 * Reads a table's rows of one tenant in pages through a server-side cursor (memory stays flat
 * for a million events), handing each page to `each`.
 */
export async function eachTenantRow(
  db: Knex,
  table: string,
  tenantId: string,
  each: (rows: Record<string, unknown>[]) => Promise<void>,
  page = 2000,
): Promise<number> {
  let n = 0;
  await db.transaction(async (trx) => {
    await trx.raw(`DECLARE export_rows NO SCROLL CURSOR FOR SELECT * FROM ?? WHERE tenant_id = ?`, [table, tenantId]);
    for (;;) {
      const { rows } = await trx.raw(`FETCH ${page} FROM export_rows`);
      if (!rows.length) break;
      n += rows.length;
      await each(rows);
    }
    await trx.raw('CLOSE export_rows');
  });
  return n;
}

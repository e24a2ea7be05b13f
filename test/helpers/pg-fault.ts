import type { Knex } from 'knex';

export interface WriteTrigger {
  /** Names the trigger, its function (and sequence): plain lower-case letters, digits, underscores. */
  name: string;
  table: string;
  on: 'INSERT' | 'UPDATE' | 'DELETE';
  /**
   * The trigger's WHEN condition over NEW (OLD for DELETE): only the rows it matches are touched.
   * Without it the trigger is a statement-level one: every such statement on the table is touched, once.
   */
  when?: string;
}

async function install(db: Knex, r: WriteTrigger, body: string): Promise<() => Promise<void>> {
  if (!/^[a-z0-9_]+$/.test(r.name)) throw new Error(`trigger name ${r.name}`);
  // A BEFORE row trigger returns the row to write (NULL would skip it); a statement trigger's result is ignored.
  const result = r.when === undefined ? 'NULL' : r.on === 'DELETE' ? 'OLD' : 'NEW';
  const each = r.when === undefined ? 'FOR EACH STATEMENT' : `FOR EACH ROW WHEN (${r.when})`;
  await db.raw(`CREATE FUNCTION ${r.name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN ${result}; END $$`);
  await db.raw(`CREATE TRIGGER ${r.name} BEFORE ${r.on} ON ${r.table} ${each} EXECUTE FUNCTION ${r.name}()`);
  let removed = false;
  return async () => {
    if (removed) return;
    removed = true;
    await db.raw(`DROP TRIGGER ${r.name} ON ${r.table}; DROP FUNCTION ${r.name}()`);
  };
}

/**
 * The first matching write raises a Postgres error (a failure between two writes of a job, as a
 * crash or a lost connection would leave it); later ones pass. Returns how many matching writes
 * were tried: the count is a sequence, which the failed transaction does not roll back.
 */
export async function failOnce(db: Knex, r: WriteTrigger): Promise<{ tried(): Promise<number>; remove(): Promise<void> }> {
  await db.raw(`CREATE SEQUENCE ${r.name}`);
  const drop = await install(db, r, `IF nextval('${r.name}') = 1 THEN RAISE EXCEPTION 'injected fault: ${r.name}'; END IF;`);
  return {
    async tried() {
      const { rows } = await db.raw(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM ${r.name}`);
      return Number(rows[0].n);
    },
    async remove() {
      await drop();
      await db.raw(`DROP SEQUENCE ${r.name}`);
    },
  };
}

/**
 * Matching writes wait until `release()`: each takes an advisory lock that a transaction of the
 * test holds, so a test can stop a job in the middle of its writes and start another beside it.
 * `remove()` lets the writes go first if they are still held (a test that failed before its
 * `release()`; held writers would block DROP TRIGGER), and does nothing once done.
 */
export async function holdWrites(db: Knex, r: WriteTrigger): Promise<{ release(): Promise<void>; remove(): Promise<void> }> {
  const key = `hold:${r.name}`;
  const drop = await install(db, r, `PERFORM pg_advisory_xact_lock(hashtext('${key}'));`);
  const holder = await db.transaction();
  await holder.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [key]);
  const release = async () => void (await holder.commit());
  return {
    release,
    async remove() {
      if (!holder.isCompleted()) await release();
      await drop();
    },
  };
}

/** Backends of this database waiting on a lock (a row lock, an advisory lock). */
export async function lockWaiters(db: Knex): Promise<number> {
  const { rows } = await db.raw(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
  return rows[0].n;
}

/**
 * Reads of `table` fail until `restore()` (Postgres has no triggers on SELECT): the table is
 * renamed away, so every statement naming it fails as with a missing relation. Restoring twice
 * does nothing.
 */
export async function hideTable(db: Knex, table: string): Promise<() => Promise<void>> {
  if (!/^[a-z0-9_]+$/.test(table)) throw new Error(`table name ${table}`);
  await db.raw(`ALTER TABLE ${table} RENAME TO ${table}_hidden`);
  let restored = false;
  return async () => {
    if (restored) return;
    restored = true;
    await db.raw(`ALTER TABLE ${table}_hidden RENAME TO ${table}`);
  };
}

import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';
import type { Sealed } from '../platform/sealed.js';

export interface ReceiverRow {
  id: string;
  tenant_id: string;
  url: string;
  kinds: string[];
  description: string;
  secret: Sealed;
  secret_last4: string;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failure_streak: number;
  created_at: Date;
  updated_at: Date;
}

export function receiversRepo(db: Knex) {
  const rows = () => db<ReceiverRow>('webhook_receivers');
  return {
    async create(
      tenantId: string,
      r: { url: string; kinds: string[]; description: string; secret: Sealed; secretLast4: string; enabled: boolean },
    ): Promise<ReceiverRow> {
      const [row] = await rows()
        .insert({
          id: newId('whr'),
          tenant_id: tenantId,
          url: r.url,
          kinds: r.kinds,
          description: r.description,
          secret: r.secret as never,
          secret_last4: r.secretLast4,
          enabled: r.enabled,
        })
        .returning('*');
      return row as ReceiverRow;
    },
    async list(tenantId: string): Promise<ReceiverRow[]> {
      return rows()
        .where({ tenant_id: tenantId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async find(tenantId: string, id: string): Promise<ReceiverRow | undefined> {
      return rows().where({ tenant_id: tenantId, id }).first();
    },
    async get(id: string): Promise<ReceiverRow | undefined> {
      return rows().where({ id }).first();
    },
    /** Enabled receivers of the store that subscribed to `kind`. */
    async subscribed(tenantId: string, kind: string): Promise<ReceiverRow[]> {
      return rows().where({ tenant_id: tenantId, enabled: true }).whereRaw('? = ANY(kinds)', [kind]);
    },
    /** Enabling again clears the failure streak and the reason it was disabled. */
    async update(
      tenantId: string,
      id: string,
      patch: Partial<Pick<ReceiverRow, 'url' | 'kinds' | 'description' | 'enabled' | 'secret' | 'secret_last4'>>,
    ): Promise<ReceiverRow | undefined> {
      const extra =
        patch.enabled === true
          ? { failure_streak: 0, disabled_reason: null, disabled_at: null }
          : patch.enabled === false
            ? { disabled_reason: 'disabled by the store', disabled_at: db.fn.now() }
            : {};
      const [row] = await rows()
        .where({ tenant_id: tenantId, id })
        .update({ ...patch, ...extra, updated_at: db.fn.now() } as never)
        .returning('*');
      return row as ReceiverRow | undefined;
    },
    async remove(tenantId: string, id: string): Promise<boolean> {
      return (await rows().where({ tenant_id: tenantId, id }).delete()) > 0;
    },
    async succeeded(id: string): Promise<void> {
      await rows().where({ id }).andWhere('failure_streak', '>', 0).update({ failure_streak: 0 });
    },
    /**
     * One more notification that used up its attempts; disables the receiver at `disableAfter` in a row. Returns the row when this call disabled it.
     * A disabled receiver's streak stays where it was disabled (a send under way then, or an interrupted last attempt found later, fails after it).
     */
    async failedOnce(id: string, disableAfter: number): Promise<ReceiverRow | undefined> {
      // One statement: two failures at once wait on the row lock, and the second, finding it disabled, counts nothing.
      const reached = db.raw('failure_streak + 1 >= ?', [disableAfter]);
      const [row] = await rows()
        .where({ id, enabled: true })
        .update({
          failure_streak: db.raw('failure_streak + 1') as never,
          enabled: db.raw('NOT (?)', [reached]) as never,
          disabled_at: db.raw('CASE WHEN ? THEN now() ELSE disabled_at END', [reached]) as never,
          disabled_reason: db.raw("CASE WHEN ? THEN (failure_streak + 1) || ' notifications in a row failed every attempt' ELSE disabled_reason END", [
            reached,
          ]) as never,
          updated_at: db.raw('CASE WHEN ? THEN now() ELSE updated_at END', [reached]) as never,
        })
        .returning('*');
      return row && !row.enabled ? (row as ReceiverRow) : undefined;
    },
  };
}

import { newId } from '../platform/ids.js';
import type { Queues } from '../platform/queue/queues.js';
import type { ProductSource } from './fields.js';
import type { ItemsRepo } from './items.repo.js';
import { selectFields } from './collect.js';
import type { TranslationSettings } from './settings.repo.js';
import { goneFields, overlay, staleChanges } from './sources.js';
import { collectJob } from './translation.jobs.js';
import { FIELDS } from './translation.schema.js';

export interface HookDeps {
  queues: Pick<Queues, 'enqueue'>;
  items: ItemsRepo;
  settings: { watched(tenantId: string): Promise<TranslationSettings[]> };
  tenants: { find(id: string): Promise<{ default_locale: string } | undefined> };
}

interface Row<P> {
  id: string;
  data: P;
}

/**
 * What the catalog's index stage calls for every stored batch: translations whose source text
 * changed go stale (their old text stays served until replaced), items of deleted products and of
 * fields the store dropped or now translates itself go, and with watch mode on, new and changed fields are queued for translation.
 */
export async function productsChanged(
  deps: HookDeps,
  tenantId: string,
  rows: Array<Row<ProductSource>>,
  goneIds: string[],
): Promise<{ stale: number; watched: number }> {
  if (goneIds.length) await deps.items.removeProducts(tenantId, goneIds);
  if (!rows.length) return { stale: 0, watched: 0 };
  const [stored, watched, tenant] = await Promise.all([
    deps.items.forProducts(
      tenantId,
      rows.map((r) => r.id),
    ),
    deps.settings.watched(tenantId),
    deps.tenants.find(tenantId),
  ]);
  if (!tenant || (!stored.length && !watched.length)) return { stale: 0, watched: 0 };
  const products = rows.map((r) => r.data);
  const gone = new Set(goneFields(stored, products, tenant.default_locale));
  if (gone.size) await deps.items.removeItems(tenantId, [...gone]);
  const items = stored.filter((i) => !gone.has(i.id));
  const changes = await deps.items.markStale(tenantId, staleChanges(items, products, tenant.default_locale));
  const changed = new Map(changes.map((c) => [c.id, c]));
  const now = items.map((i) => (changed.has(i.id) ? { ...i, ...changed.get(i.id)! } : i));
  let queued = 0;
  for (const s of watched) {
    const sel = { scope: 'changed' as const, target: s.target_locale, fields: FIELDS, productIds: null };
    const todo = selectFields(products, now, sel, tenant.default_locale);
    if (!todo.length) continue;
    const productIds = [...new Set(todo.map((t) => t.source.productId))];
    const runId = newId('watch');
    await deps.queues.enqueue(collectJob, {
      tenantId,
      jobRowId: null,
      runId,
      targetLocale: s.target_locale,
      scope: 'changed',
      fields: [...FIELDS],
      productIds,
      reviewTopN: 0,
    });
    queued += productIds.length;
  }
  return { stale: changes.length, watched: queued };
}

/** The rows with their served translations filled into their locale fields (for indexing and the vocabulary). */
export async function localize<R extends Row<ProductSource>>(deps: Pick<HookDeps, 'items'>, tenantId: string, rows: R[]): Promise<R[]> {
  const served = await deps.items.served(
    tenantId,
    rows.map((r) => r.id),
  );
  if (!served.length) return rows;
  const byProduct = new Map<string, typeof served>();
  for (const s of served) byProduct.set(s.product_id, [...(byProduct.get(s.product_id) ?? []), s]);
  return rows.map((r) => (byProduct.has(r.id) ? { ...r, data: overlay(r.data, byProduct.get(r.id)!) } : r));
}

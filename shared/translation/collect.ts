import { fieldId, sourceFields, type ProductSource, type SourceField } from './fields.js';
import type { ItemRow, ItemsRepo } from './items.repo.js';
import { backfillTakes } from './state-machine.js';
import { staleChanges } from './sources.js';
import type { BackfillScope, Field } from './translation.schema.js';
import type { ChunkItem } from './translation.jobs.js';

/** Internal scope of watch mode: new fields, pending ones and stale machine text. */
export type CollectScope = BackfillScope | 'changed';

export interface Selection {
  scope: CollectScope;
  target: string;
  fields: readonly Field[];
  productIds: string[] | null;
}

/** What collecting reads: stored products a page at a time, and the tenant's default language. */
export interface CatalogReader {
  page(tenantId: string, after: string | null, limit: number): Promise<Array<{ id: string; data: ProductSource }>>;
  findMany(tenantId: string, ids: string[]): Promise<Array<{ id: string; data: ProductSource }>>;
}

const PAGE = 1000;

/** Products of the selection, a page at a time. */
export async function* productPages(catalog: CatalogReader, tenantId: string, productIds: string[] | null): AsyncGenerator<ProductSource[]> {
  if (productIds) {
    for (let i = 0; i < productIds.length; i += PAGE) yield (await catalog.findMany(tenantId, productIds.slice(i, i + PAGE))).map((r) => r.data);
    return;
  }
  let after: string | null = null;
  for (;;) {
    const rows = await catalog.page(tenantId, after, PAGE);
    if (!rows.length) return;
    yield rows.map((r) => r.data);
    after = rows[rows.length - 1].id;
  }
}

function takes(item: ItemRow | undefined, scope: CollectScope): boolean {
  if (!item) return scope !== 'stale';
  if (scope === 'changed') return !item.human_edited && (item.status === 'pending' || item.status === 'stale');
  return backfillTakes(item, scope);
}

/** The fields of these products a backfill of `scope` translates, with their current items. */
export function selectFields(products: ProductSource[], items: ItemRow[], sel: Selection, preferred: string): Array<{ source: SourceField; item?: ItemRow }> {
  const byField = new Map(
    items.filter((i) => i.target_locale === sel.target).map((i) => [fieldId({ productId: i.product_id, field: i.field, fieldKey: i.field_key }), i]),
  );
  const out: Array<{ source: SourceField; item?: ItemRow }> = [];
  for (const p of products) {
    for (const source of sourceFields(p, sel.target, preferred, sel.fields)) {
      const item = byField.get(fieldId(source));
      if (takes(item, sel.scope)) out.push({ source, item });
    }
  }
  return out;
}

export interface CollectDeps {
  catalog: CatalogReader;
  items: ItemsRepo;
}

/**
 * Walks the selected products: first brings their items' sources up to date (stale marking), then
 * creates pending items for fields that have none, and hands the fields to translate to `emit` in
 * chunks of at most `chunkFields` (none when `translate` is false: no provider, people translate).
 */
export async function collect(
  deps: CollectDeps,
  tenantId: string,
  sel: Selection,
  opts: {
    preferred: string;
    translate: boolean;
    chunkFields: number;
    reviewProducts: Set<string>;
    emit(items: ChunkItem[]): Promise<void>;
    progress?(): Promise<void>;
  },
) {
  let products = 0;
  let fields = 0;
  let created = 0;
  let buffer: ChunkItem[] = [];
  // A page's chunks are queued while the next page is read (one page ahead, so memory stays bounded).
  let queued: Promise<unknown> = Promise.resolve();
  const flush = async (chunks: ChunkItem[][]) => {
    await queued;
    queued = Promise.all(chunks.map((c) => opts.emit(c)));
  };
  for await (const page of productPages(deps.catalog, tenantId, sel.productIds)) {
    const ids = page.map((p) => p.id);
    // One read of the page's items (every locale): stale marking first, then the selection sees the result.
    const all = await deps.items.forProducts(tenantId, ids);
    const changed = new Map((await deps.items.markStale(tenantId, staleChanges(all, page, opts.preferred))).map((c) => [c.id, c]));
    const items = all.filter((i) => i.target_locale === sel.target).map((i) => (changed.has(i.id) ? { ...i, ...changed.get(i.id)! } : i));
    const chosen = selectFields(page, items, sel, opts.preferred);
    const inserted = await deps.items.insertPending(
      tenantId,
      sel.target,
      chosen.filter((c) => !c.item).map((c) => c.source),
    );
    created += inserted.length;
    // A field another run created meanwhile has no row here: the next backfill takes it.
    const byField = new Map([...items, ...inserted].map((i) => [fieldId({ productId: i.product_id, field: i.field, fieldKey: i.field_key }), i]));
    const byProduct = new Map(page.map((p) => [p.id, p]));
    products += new Set(chosen.map((c) => c.source.productId)).size;
    fields += chosen.length;
    const ready: ChunkItem[][] = [];
    if (opts.translate) {
      for (const { source } of chosen) {
        const item = byField.get(fieldId(source));
        if (!item) continue;
        const p = byProduct.get(source.productId)!;
        buffer.push({
          id: item.id,
          version: item.version,
          productId: source.productId,
          field: source.field,
          fieldKey: source.fieldKey,
          sourceLocale: source.sourceLocale,
          text: source.text,
          codes: [p.brand, p.model, p.sku, p.gtin].filter((c): c is string => typeof c === 'string' && c.trim().length > 0),
          review: opts.reviewProducts.has(source.productId),
        });
        if (buffer.length >= opts.chunkFields) {
          ready.push(buffer);
          buffer = [];
        }
      }
    }
    await flush(ready);
    await opts.progress?.();
  }
  await flush(buffer.length ? [buffer] : []);
  await queued;
  return { products, fields, created };
}

/** Counts a backfill would cover (dry run, and the 202 answer), without writing anything. */
export async function countSelection(catalog: CatalogReader, items: Pick<ItemsRepo, 'forProducts'>, tenantId: string, sel: Selection, preferred: string) {
  let products = 0;
  let fields = 0;
  let chars = 0;
  for await (const page of productPages(catalog, tenantId, sel.productIds)) {
    const chosen = selectFields(
      page,
      await items.forProducts(
        tenantId,
        page.map((p) => p.id),
        sel.target,
      ),
      sel,
      preferred,
    );
    products += new Set(chosen.map((c) => c.source.productId)).size;
    fields += chosen.length;
    for (const c of chosen) chars += c.source.text.length;
  }
  return { products, fields, chars };
}

import { startJob, type JobRow, type StartJobDeps } from '../jobs/index.js';
import type { Translator } from '../engines/translator/index.js';
import { countSelection, type CatalogReader } from './collect.js';
import type { ItemsRepo } from './items.repo.js';
import { CollectData, collectJob } from './translation.jobs.js';
import type { BackfillScope, Field } from './translation.schema.js';
import { checkTargetLocale, type StoreLocales } from './target-locale.js';

export interface BackfillInput {
  target_locale: string;
  fields: Field[];
  scope: BackfillScope;
  product_ids: string[] | null;
  review_top_n: number;
  dry_run: boolean;
}

export interface BackfillDeps extends StartJobDeps {
  catalog: CatalogReader;
  items: Pick<ItemsRepo, 'forProducts'>;
  tenants: StoreLocales;
  translator: Translator | null;
  batchFields: number;
}

/** The dedupe key of a locale's backfill: a second request while one is live joins it. */
export const backfillKey = (target: string) => `translate_backfill-${target}`;

/** Micro-USD as the API shows money: a decimal string of US dollars. */
export const usd = (micros: number) => (micros / 1e6).toFixed(6);

/**
 * Counts what a backfill covers and its estimated cost; unless `dry_run`, starts the
 * translate_backfill job (or joins the live one for the locale) and returns it too.
 */
export async function startBackfill(
  deps: BackfillDeps,
  tenantId: string,
  input: BackfillInput,
): Promise<{ estimate: Record<string, unknown>; job: JobRow | null; joined: boolean }> {
  const defaultLocale = await checkTargetLocale(deps.tenants, tenantId, input.target_locale);
  const sel = { scope: input.scope, target: input.target_locale, fields: input.fields, productIds: input.product_ids };
  const counts = await countSelection(deps.catalog, deps.items, tenantId, sel, defaultLocale);
  const calls = Math.ceil(counts.fields / deps.batchFields);
  const estimate = {
    products: counts.products,
    fields: counts.fields,
    // No provider, no spending: the items go to people.
    estimated_cost_usd: usd(deps.translator ? deps.translator.estimateCostMicros(counts.chars, calls) : 0),
    provider: deps.translator?.name ?? null,
  };
  if (input.dry_run) return { estimate, job: null, joined: false };
  const { job, joined } = await startJob(deps, {
    tenantId,
    kind: 'translate_backfill',
    dedupeKey: backfillKey(input.target_locale),
    params: { target_locale: input.target_locale, fields: input.fields, scope: input.scope, product_ids: input.product_ids, review_top_n: input.review_top_n },
    first: collectJob,
    data: (jobRowId) =>
      restartData(tenantId, jobRowId, {
        target_locale: input.target_locale,
        fields: input.fields,
        scope: input.scope,
        product_ids: input.product_ids,
        review_top_n: input.review_top_n,
      }),
  });
  return { estimate, job, joined };
}

/** The collect job of a backfill from its jobs row's params (a start, or a restart after its queued work was lost). */
export function restartData(tenantId: string, jobRowId: string, params: Record<string, unknown>): CollectData {
  return CollectData.parse({
    tenantId,
    jobRowId,
    runId: jobRowId,
    targetLocale: params.target_locale,
    scope: params.scope,
    fields: params.fields,
    productIds: params.product_ids ?? null,
    reviewTopN: params.review_top_n ?? 0,
  });
}

import { defineStage } from '../define-stage.js';
import { indexJob, routeJob, routeTranslation } from '../../shared/translation/index.js';

/**
 * Writes each checked translation with its route (review on any error or for review_top_n
 * products; approved when the store auto-approves; else machine). A write applies only if the
 * item is at the version collected and no person wrote it, so a re-run writes nothing twice and a
 * human edit is never overwritten. Counts translated products for usage. Job id: route-fields-<tenant>-<run>-<chunk>.
 */
export const routeFields = defineStage({
  ...routeJob,
  async run({ data, deps, next }) {
    const policy = await deps.repos.translationSettings.get(data.tenantId, data.targetLocale);
    const perItem = data.cost && data.cost.micros ? Math.round(data.cost.micros / Math.max(1, data.items.length)) : 0;
    const checked = data.items.filter((i) => i.notes && i.restored !== undefined);
    const writes = checked.map((i) => ({
      id: i.id,
      version: i.version,
      translated_text: i.restored!,
      status: routeTranslation({ notes: i.notes!, score: i.score!, review: i.review }, policy),
      quality_score: i.score!,
      quality_notes: i.notes!,
      provider: data.provider ?? 'unknown',
      cost_micros: perItem,
    }));
    const written = await deps.repos.translationItems.writeMachine(data.tenantId, writes);
    const outcome: Record<string, number> = {
      translated: written.length,
      not_written: writes.length - written.length,
      left_out: data.items.filter((i) => i.skipped === 'left_out').length,
      unchanged: data.items.filter((i) => i.skipped === 'unchanged').length,
    };
    for (const w of written) outcome[w.status] = (outcome[w.status] ?? 0) + 1;
    const products = [...new Set(written.map((w) => w.product_id))];
    // Products translated for the first time this month also count into the day's usage (GET /v1/usage daily rows);
    // a retried job finds them counted and adds nothing.
    const firstThisMonth = await deps.repos.translationUsage.countProducts(data.tenantId, products);
    if (firstThisMonth) {
      deps.usage.count(data.tenantId, 'translated_product', firstThisMonth);
      await deps.usage.flush();
    }
    // The index stage needs only the outcome: the items go on as bare keys.
    const keys = data.items.map(({ id, version, productId, field, fieldKey, sourceLocale, review }) => ({
      id,
      version,
      productId,
      field,
      fieldKey,
      sourceLocale,
      review,
      text: '',
      codes: [],
    }));
    await next(indexJob, { ...data, items: keys, outcome, changedProducts: products });
    return outcome;
  },
});

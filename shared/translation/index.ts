import type { Knex } from 'knex';
import { itemsRepo } from './items.repo.js';
import { reviewRepo } from './review.repo.js';
import { glossaryRepo } from './glossary.repo.js';
import { settingsRepo } from './settings.repo.js';
import { usageMonth, usageRepo } from './usage.repo.js';
import { runsRepo } from './runs.repo.js';
import { answersRepo } from './answers.repo.js';

/**
 * Translation: machine translation of catalog text with glossary protection and quality checks,
 * the review queue and its state machine, stale tracking, the approved feed and exports, and the
 * locale text search serves (README "Catalog translation").
 */
export function translationRepos(db: Knex) {
  return {
    translationItems: itemsRepo(db),
    translationReview: reviewRepo(db),
    glossary: glossaryRepo(db),
    translationSettings: settingsRepo(db),
    translationUsage: usageRepo(db),
    translationRuns: runsRepo(db),
    translationAnswers: answersRepo(db),
  };
}

/** Usage metric `translated_product`: products machine-translated in `month` (`YYYY-MM`, UTC), each counted once. */
export function translatedProducts(db: Knex, tenantId: string, month = usageMonth()): Promise<number> {
  return usageRepo(db).products(tenantId, month);
}

/** Usage metric `ai_cost_micros_usd` (translation's part): provider cost in `month`, micro-USD. */
export function translationCostMicros(db: Knex, tenantId: string, month = usageMonth()): Promise<number> {
  return usageRepo(db).costMicros(tenantId, month);
}

export { productsChanged, localize, type HookDeps } from './catalog-hooks.js';
export { checkTargetLocale } from './target-locale.js';
export { startBackfill, backfillKey, restartData, usd, type BackfillInput } from './backfill.js';
export { reviewService } from './review.js';
export type { ReviewAfter } from './review.repo.js';
export { ANSWERS_KEPT_DAYS, UNCOUNTED_KEPT_DAYS } from './answers.repo.js';
export { collect, type CollectScope } from './collect.js';
export { protect, restore } from './protect.js';
export { checkTranslation, qualityScore } from './quality-checks.js';
export { routeTranslation } from './routing.js';
export { translateItems } from './translate-batches.js';
export { reindexProducts } from './reindex.js';
export { toCsv, toJson, toWriteItem, EXPORT_FORMATS, type ExportFormat } from './exports.js';
export { productsMissingColumns, toOpenCartSql } from './opencart-export.js';
export { reviewTarget, SCOPE_STATUSES } from './state-machine.js';
export { defaultSettings, type TranslationSettings } from './settings.repo.js';
export { MAX_GLOSSARY_TERMS, type GlossaryRow } from './glossary.repo.js';
export { usageMonth } from './usage.repo.js';
export type { ItemRow } from './items.repo.js';
export * from './translation.schema.js';
export * from './translation.jobs.js';

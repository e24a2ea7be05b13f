import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { VocabularyBuilder } from '../../shared/search/vocabulary-builder.js';
import { CategoryProfileBuilder } from '../../shared/search/category-profile.js';
import { categoryTargets } from '../../shared/catalog/search-doc.js';
import { tenantBacklog } from '../../shared/platform/queue/fairness.js';
import { analyzeChanged, flushGinPending } from '../../shared/maintenance/analyze.js';
import { localize } from '../../shared/translation/index.js';
import { translationHooks } from '../translation/hooks.js';

const PAGE = 2000;

/**
 * Rebuilds a tenant's spelling vocabulary, suggestion dictionary and category profiles from its stored products (with served translations)
 * (and its successful past queries). Replaces both tables' rows for the tenant in one
 * transaction, so re-runs are harmless, then tells the API processes to reload their suggestion
 * dictionaries. Job id: vocab-<tenant>-<time bucket> (debounced). While the tenant's catalog
 * batches are still being indexed (a bulk sync), it does nothing: the last of them queues another.
 */
export const refreshVocabulary = defineStage({
  // Its own queue: a rebuild reads the whole catalog and must not hold up indexing.
  queue: 'vocabulary',
  name: 'refresh-vocabulary',
  schema: z.object({ tenantId: z.string().min(1), bucket: z.number().int() }),
  jobId: (d) => `vocab-${d.tenantId}-${d.bucket}`,
  attempts: 3,
  async run({ data, deps, progress }) {
    // A rebuild now would read a catalog still growing, and the last batch's rebuild reads it all again.
    const pending = await tenantBacklog(deps.redis, deps.config.queuePrefix, 'catalog', data.tenantId);
    if (pending > 0) return { deferred: true, pending_batches: pending };
    const builder = new VocabularyBuilder();
    const profiles = new CategoryProfileBuilder();
    const total = await deps.repos.products.count(data.tenantId);
    let after: string | null = null;
    let done = 0;
    for (;;) {
      const stored = await deps.repos.products.page(data.tenantId, after, PAGE);
      if (!stored.length) break;
      // Served translations count like the store's own text: suggestions and spelling in every language.
      const rows = await localize(translationHooks(deps), data.tenantId, stored);
      for (const r of rows) {
        if (r.data.visible === false) continue;
        builder.add(r.data);
        profiles.add(Object.values(r.data.name), categoryTargets(r.data));
      }
      done += rows.length;
      after = rows[rows.length - 1].id;
      await progress(total ? (0.8 * done) / total : 0.8);
    }
    const queries = await deps.repos.searchLog.popularQueries(data.tenantId, 5000);
    const suggestions = [
      ...builder.suggestTerms(),
      ...queries.map((q) => ({ kind: 'query' as const, norm: q.normalized, display: q.query, target: null, weight: q.count * 10 })),
    ];
    const categories = profiles.build();
    const described = builder.describedTerms();
    await deps.repos.vocabulary.replace(
      data.tenantId,
      builder.terms,
      suggestions,
      categories,
      builder.products,
      builder.heads,
      builder.nameWords,
      builder.openings,
      builder.spelling.variants(),
      described,
    );
    await deps.notices.publish('vocabulary', data.tenantId);
    // The catalog just settled (no batch pending): fresh statistics keep searches on good plans, and
    // index entries still waiting in GIN pending lists would be scanned by every search.
    const analyzed = await analyzeChanged(deps.db);
    const flushed = await flushGinPending(deps.db);
    return {
      terms: builder.terms.size,
      product_types: builder.heads.size,
      description_words: described.size,
      suggestions: suggestions.length,
      category_profiles: categories.length,
      analyzed,
      gin_pending_pages: flushed,
    };
  },
});

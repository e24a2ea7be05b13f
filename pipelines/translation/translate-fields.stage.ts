import { UnrecoverableError } from 'bullmq';
import { defineStage } from '../define-stage.js';
import { restoreJob, translateItems, translateJob } from '../../shared/translation/index.js';

/**
 * Calls the translation provider: several texts per call, a few calls in flight, identical texts
 * once. Items written or edited since collect are not paid for again. The cost is recorded at
 * once (it was spent). Job id: translate-fields-<tenant>-<run>-<chunk>.
 */
export const translateFields = defineStage({
  ...translateJob,
  async run({ data, deps, next, signal }) {
    if (!deps.translator) throw new UnrecoverableError('no translation provider is configured');
    const current = new Map(
      (
        await deps.repos.translationItems.findMany(
          data.tenantId,
          data.items.map((i) => i.id),
        )
      ).map((r) => [r.id, r]),
    );
    const due = (i: (typeof data.items)[number]) => {
      const row = current.get(i.id);
      return !!row && row.version === i.version && !row.human_edited;
    };
    const todo = data.items.filter(due);
    const t = deps.config.translation;
    const { items: done, cost } = await translateItems(deps.translator, data.targetLocale, todo, {
      batchFields: t.batchFields,
      batchChars: t.batchChars,
      parallelCalls: t.parallelCalls,
      signal,
    });
    if (cost.calls) await deps.repos.translationUsage.addCost(data.tenantId, data.targetLocale, cost);
    const byId = new Map(done.map((i) => [i.id, i]));
    await next(restoreJob, {
      ...data,
      items: data.items.map((i) => byId.get(i.id) ?? { ...i, skipped: 'unchanged' as const }),
      provider: deps.translator.name,
      cost,
    });
    return {
      translated: done.filter((i) => i.output !== undefined).length,
      skipped: data.items.length - todo.length,
      calls: cost.calls,
      cost_micros: cost.micros,
    };
  },
});

import { UnrecoverableError } from 'bullmq';
import { defineStage } from '../define-stage.js';
import { restoreJob, translateItems, translateJob } from '../../shared/translation/index.js';

/**
 * Calls the translation provider: several texts per call, a few calls in flight, identical texts
 * once. Items written or edited since collect are not paid for again. Each answer is kept as it
 * arrives (translation_answers, by job and batch content) and its cost added to usage once; a retry
 * reuses the kept answers and asks only for what is missing. Job id: translate-fields-<tenant>-<run>-<chunk>.
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
    const pending = data.items.filter(due);
    const t = deps.config.translation;
    const store = deps.repos.translationAnswers.forJob({ tenantId: data.tenantId, runId: data.runId, chunk: data.chunk, target: data.targetLocale });
    const {
      items: done,
      cost,
      called,
      reused,
    } = await translateItems(deps.translator, data.targetLocale, pending, store, {
      batchFields: t.batchFields,
      batchChars: t.batchChars,
      parallelCalls: t.parallelCalls,
      signal,
    });
    const byId = new Map(done.map((i) => [i.id, i]));
    await next(restoreJob, {
      ...data,
      items: data.items.map((i) => byId.get(i.id) ?? { ...i, skipped: 'unchanged' as const }),
      provider: deps.translator.name,
      cost,
    });
    return {
      translated: done.filter((i) => i.output !== undefined).length,
      skipped: data.items.length - pending.length,
      calls: called,
      reused,
      cost_micros: cost.micros,
    };
  },
});

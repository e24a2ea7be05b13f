import { defineStage } from '../define-stage.js';
import { checkJob, checkTranslation, qualityScore, routeJob, type GlossaryRow } from '../../shared/translation/index.js';

/** Runs the quality checks on each restored translation (quality_notes, quality_score). Pure over the chunk and the glossary. Job id: check-fields-<tenant>-<run>-<chunk>. */
export const checkFields = defineStage({
  ...checkJob,
  async run({ data, deps, next }) {
    const glossaries = new Map<string, GlossaryRow[]>();
    for (const locale of new Set(data.items.map((i) => i.sourceLocale))) {
      glossaries.set(locale, await deps.repos.glossary.forPair(data.tenantId, locale, data.targetLocale));
    }
    let errors = 0;
    const items = data.items.map(({ report, ...i }) => {
      if (i.restored === undefined) return i;
      const notes = checkTranslation({
        source: i.text,
        translated: i.restored,
        targetLocale: data.targetLocale,
        codes: i.codes,
        glossary: glossaries.get(i.sourceLocale)!,
        restored: report,
      });
      if (Object.values(notes).some((n) => n.result === 'error')) errors++;
      return { ...i, notes, score: qualityScore(notes) };
    });
    await next(routeJob, { ...data, items });
    return { checked: items.filter((i) => i.notes).length, with_errors: errors };
  },
});

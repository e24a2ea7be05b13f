import { defineStage } from '../define-stage.js';
import { protect, protectJob, translateJob, type GlossaryRow } from '../../shared/translation/index.js';

/**
 * Masks what the provider must not translate (HTML, URLs, glossary terms, the product's brand,
 * model, SKU, GTIN, numbers with units) with placeholders. Pure over the chunk: a re-run hands
 * on the same data. Job id: protect-fields-<tenant>-<run>-<chunk>.
 */
export const protectFields = defineStage({
  ...protectJob,
  async run({ data, deps, next }) {
    const glossaries = new Map<string, GlossaryRow[]>();
    for (const locale of new Set(data.items.map((i) => i.sourceLocale))) {
      glossaries.set(locale, await deps.repos.glossary.forPair(data.tenantId, locale, data.targetLocale));
    }
    const items = data.items.map((i) => {
      const p = protect(i.text, { glossary: glossaries.get(i.sourceLocale)!, codes: i.codes });
      return { ...i, masked: p.masked, tokens: p.tokens };
    });
    await next(translateJob, { ...data, items });
    return { fields: items.length, placeholders: items.reduce((n, i) => n + i.tokens.length, 0) };
  },
});

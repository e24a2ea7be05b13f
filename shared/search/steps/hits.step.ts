import type { EngineResult } from '../../engines/lexical/port.js';
import { highlight } from '../highlight.js';
import type { SearchStep } from './state.js';

/** The page's hits as the response shows them: rounded scores and name/description highlights in the query's language. */
export const hits: SearchStep = {
  name: 'hits',
  run(s) {
    const words = s.plan.terms.flatMap((t) => t.alternatives.flat());
    const last = s.tokens[s.tokens.length - 1] ?? null;
    s.hits = s.result.hits.map((h) => {
      const pinned = s.pinned?.has(h.id) ?? false;
      // A pinned product's place is the rule's, not a relevance score.
      return { id: h.id, score: pinned ? null : Math.round(h.score * 1e6) / 1e6, product: h.card, highlights: highlights(h, s.lang, words, last), pinned };
    });
  },
  trace: (s) => ({ hits: s.hits.length }),
};

function highlights(hit: EngineResult['hits'][number], lang: string, words: string[], last: string | null) {
  const out: Record<string, string> = {};
  const name = hit.card.name[lang] ?? Object.values(hit.card.name)[0];
  const n = name ? highlight(name, words, last) : null;
  if (n) out.name = n;
  const desc = hit.description?.[lang] ?? (hit.description ? Object.values(hit.description)[0] : undefined);
  const d = desc ? highlight(desc, words, null) : null;
  if (d) out.description = d;
  return out;
}

import type { EngineResult } from '../../engines/lexical/port.js';
import { highlighter } from '../highlight.js';
import type { SearchStep } from './state.js';

/** The page's hits as the response shows them: rounded scores and name/description highlights in the query's language. */
export const hits: SearchStep = {
  name: 'hits',
  run(s) {
    const words = s.plan.terms.flatMap((t) => t.alternatives.flat());
    // Made once for the page: the name also by a prefix of the last word, the description by whole words.
    const marks = { name: highlighter(words, s.tokens[s.tokens.length - 1] ?? null), description: highlighter(words, null) };
    s.hits = s.result.hits.map((h) => {
      const pinned = s.pinned?.has(h.id) ?? false;
      // A pinned product's place is the rule's, not a relevance score.
      return { id: h.id, score: pinned ? null : Math.round(h.score * 1e6) / 1e6, product: h.card, highlights: highlights(h, s.lang, marks), pinned };
    });
  },
  trace: (s) => ({ hits: s.hits.length }),
};

type Marks = Record<'name' | 'description', (text: string) => string | null>;

function highlights(hit: EngineResult['hits'][number], lang: string, marks: Marks) {
  const out: Record<string, string> = {};
  const name = hit.card.name[lang] ?? Object.values(hit.card.name)[0];
  const n = name ? marks.name(name) : null;
  if (n) out.name = n;
  const desc = hit.description?.[lang] ?? (hit.description ? Object.values(hit.description)[0] : undefined);
  const d = desc ? marks.description(desc) : null;
  if (d) out.description = d;
  return out;
}

import { normalizeText } from '../../text/normalize.js';
import { tokenize } from '../../text/tokenize.js';

/**
 * The catalog embedder's features of a text: its words and the character 3-grams of each word
 * (with boundary marks), so typos, inflections and any script (Arabic the same as English) share
 * features. No language-specific rule is involved.
 */
export function textFeatures(text: string): string[] {
  const out: string[] = [];
  for (const word of tokenize(normalizeText(text))) {
    out.push(`w ${word}`);
    const marked = `<${word}>`;
    if (marked.length <= 4) continue;
    for (let i = 0; i + 3 <= marked.length; i++) out.push(marked.slice(i, i + 3));
  }
  return out;
}

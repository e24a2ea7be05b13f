import type { ProductIn } from './product-in.js';

/**
 * Maps one line of a catalog already written in the API's ProductIn shape (`*.product-in.jsonl`): the record as it
 * is, since the API validates it. A line holding `$comment` (as in JSON Schema) is a note for readers and is skipped.
 */
export function mapProductIn(raw: Record<string, unknown>): ProductIn | null {
  if ('$comment' in raw) return null;
  return raw as unknown as ProductIn;
}

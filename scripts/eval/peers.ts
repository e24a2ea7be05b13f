import MiniSearch from 'minisearch';
import type { ProductIn } from '../catalog/product-in.js';

/**
 * The plain BM25 library measured beside our search (MiniSearch), indexed on exactly the text the
 * service got: name, description, and brand and model where the collection has them.
 */

/** The text of one product as a peer indexes it. */
export interface PeerDoc {
  id: string;
  name: string;
  description: string;
  brand: string;
  model: string;
}

/** A peer's ranked product ids for a query, at most k. */
export type Ranker = (query: string, k: number) => string[];

const TEXT_FIELDS = ['name', 'description', 'brand', 'model'] as const;

/** The peer document of a product as sent to the service (English text, null fields as empty). */
export function peerDoc(p: ProductIn): PeerDoc {
  return { id: p.id, name: p.name.en ?? '', description: p.description?.en ?? '', brand: p.brand ?? '', model: p.model ?? '' };
}

/** The text fields that hold anything in this collection (CrowdFlower has no brand or model: indexing empty fields would only skew BM25's field lengths). */
export function peerFields(docs: PeerDoc[]): string[] {
  return TEXT_FIELDS.filter((f) => docs.some((d) => d[f] !== ''));
}

/** The results matching every term first, then those matching any term, each id once, cut at k. */
export function andThenOr(all: string[], any: string[], k: number): string[] {
  const out = all.slice(0, k);
  const seen = new Set(out);
  for (const id of any) {
    if (out.length >= k) break;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(id);
    }
  }
  return out;
}

function index(docs: PeerDoc[]): MiniSearch<PeerDoc> {
  const ms = new MiniSearch<PeerDoc>({ fields: peerFields(docs), idField: 'id' });
  ms.addAll(docs);
  return ms;
}

/** MiniSearch with its defaults: every field weighted 1, any term (OR), BM25+ scoring, no prefix or fuzzy matching. */
export function miniSearchDefault(docs: PeerDoc[]): Ranker {
  const ms = index(docs);
  return (query, k) =>
    ms
      .search(query)
      .slice(0, k)
      .map((r) => String(r.id));
}

/** MiniSearch tuned as a developer would in an afternoon: the name boosted 2x, results with every term first, then any term to fill k. */
export function miniSearchTuned(docs: PeerDoc[]): Ranker {
  const ms = index(docs);
  const boost = { name: 2 };
  return (query, k) => {
    const ids = (combineWith: 'AND' | 'OR') => ms.search(query, { boost, combineWith }).map((r) => String(r.id));
    return andThenOr(ids('AND'), ids('OR'), k);
  };
}

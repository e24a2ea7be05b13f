import type { LiteClient } from 'algoliasearch/lite';

/** The category tree attributes the results page shows (hierarchicalMenu, separator `>`). */
export const LEVELS = ['categories.lvl0', 'categories.lvl1', 'categories.lvl2', 'categories.lvl3'];

interface LevelCounts {
  nbHits: number;
  facets?: Record<string, Record<string, number>>;
  categoryLabels?: Record<string, string>;
}

/**
 * The level key (`fashion>women>abayas`) of a category chosen by its id: a leaf category's
 * suggestion carries its id, the category tree its level keys. One free query (no hits, no
 * analytics) counts the levels of the category's products: its own path is the deepest level all
 * of them are in (the one labelled as the suggestion when another path holds them all too). Null
 * when the store has no such category.
 */
export async function categoryKey(client: LiteClient, index: string, id: string, label: string): Promise<string | null> {
  const { results } = await client.search({
    requests: [
      {
        indexName: index,
        query: '',
        hitsPerPage: 0,
        analytics: false,
        facetFilters: [`category:${id.startsWith('-') ? `\\${id}` : id}`],
        facets: LEVELS,
        maxValuesPerFacet: 50,
      },
    ],
  });
  const r = results[0] as unknown as LevelCounts;
  if (!r?.nbHits) return null;
  const same = (key: string) => (r.categoryLabels?.[key] ?? '').trim().toLowerCase() === label.trim().toLowerCase();
  const all = LEVELS.flatMap((name) => Object.entries(r.facets?.[name] ?? {}))
    .filter(([, count]) => count === r.nbHits)
    .map(([key]) => key)
    .sort((a, b) => b.split('>').length - a.split('>').length || Number(same(b)) - Number(same(a)));
  return all.find(same) ?? all[0] ?? null;
}

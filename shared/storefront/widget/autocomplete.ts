import { autocomplete, getAlgoliaResults } from '@algolia/autocomplete-js';
import type { LiteClient } from 'algoliasearch/lite';
import { money, type Strings } from './i18n.js';
import type { WidgetOptions } from './options.js';

interface Suggestion {
  objectID: string;
  query: string;
  kind: 'query' | 'category' | 'brand';
  target: string | null;
  [k: string]: unknown;
}
interface Preview {
  objectID: string;
  name: string;
  price: number;
  sale_price: number | null;
  currency: string;
  url: string | null;
  image_url: string | null;
  [k: string]: unknown;
}

export interface SuggestHandlers {
  /** A query typed and submitted, or a query suggestion chosen. */
  query(q: string): void;
  brand(name: string): void;
  /** A category suggestion: its target is a level key (`lvl:fashion>women`) or, for a leaf category, the category id. */
  category(target: string, label: string): void;
  product(item: Preview): void;
}

/**
 * As-you-type box (Autocomplete.js): completions from `<index>_query_suggestions` (queries,
 * categories, brands) and product previews from `<index>_product_suggestions`, fetched in one
 * request; arrow keys move through both lists, Enter submits or chooses.
 */
export function startAutocomplete(o: WidgetOptions, t: Strings, client: LiteClient, container: HTMLElement, panel: HTMLElement, on: SuggestHandlers) {
  return autocomplete<Suggestion | Preview>({
    container,
    panelContainer: panel,
    detachedMediaQuery: 'none',
    placeholder: t.placeholder,
    openOnFocus: false,
    translations: { clearButtonTitle: '×', submitButtonTitle: t.placeholder, detachedCancelButtonText: '×' },
    onSubmit: ({ state }) => on.query(state.query),
    onReset: () => on.query(''),
    getSources: ({ query }) => {
      if (!query.trim()) return [];
      return [
        {
          sourceId: 'suggestions',
          getItems: () =>
            getAlgoliaResults<Suggestion | Preview>({
              searchClient: client as never,
              queries: [{ indexName: `${o.index}_query_suggestions`, params: { query, hitsPerPage: 6 } }],
            }),
          getItemInputValue: ({ item }) => (item as Suggestion).query,
          onSelect: ({ item }) => {
            const s = item as Suggestion;
            if (s.kind === 'brand') on.brand(s.query);
            else if (s.kind === 'category' && s.target) on.category(s.target, s.query);
            else on.query(s.query);
          },
          templates: {
            header: ({ html }) => html`<div class="pss-ac-title">${t.suggestions}</div>`,
            item: ({ item, components, html }) => {
              const s = item as Suggestion;
              const kind = s.kind === 'brand' ? t.brandKind : s.kind === 'category' ? t.categoryKind : '';
              return html`<div class="pss-sugg" data-kind=${s.kind} data-target=${s.target ?? ''}>
                ${components.Highlight({ hit: s, attribute: 'query' })}${kind ? html`<span class="pss-kind">${kind}</span>` : ''}
              </div>`;
            },
          },
        },
        {
          sourceId: 'products',
          getItems: () =>
            getAlgoliaResults<Suggestion | Preview>({
              searchClient: client as never,
              queries: [{ indexName: `${o.index}_product_suggestions`, params: { query, hitsPerPage: 4 } }],
            }),
          getItemInputValue: ({ item }) => (item as Preview).name,
          onSelect: ({ item }) => on.product(item as Preview),
          templates: {
            header: ({ html }) => html`<div class="pss-ac-title">${t.products}</div>`,
            item: ({ item, components, html }) => {
              const p = item as Preview;
              return html`<div class="pss-preview">
                <span class="pss-thumb">${p.image_url ? html`<img src=${p.image_url} alt="" />` : ''}</span>
                <span class="pss-pname">${components.Highlight({ hit: p, attribute: 'name' })}</span>
                <span class="pss-pprice">${money(p.sale_price ?? p.price, p.currency, o.lang)}</span>
              </div>`;
            },
          },
        },
      ];
    },
  });
}

// One module per widget: the widgets barrel would bundle every widget InstantSearch ships.
import hits from 'instantsearch.js/es/widgets/hits/hits.js';
import pagination from 'instantsearch.js/es/widgets/pagination/pagination.js';
import refinementList from 'instantsearch.js/es/widgets/refinement-list/refinement-list.js';
import hierarchicalMenu from 'instantsearch.js/es/widgets/hierarchical-menu/hierarchical-menu.js';
import rangeInput from 'instantsearch.js/es/widgets/range-input/range-input.js';
import sortBy from 'instantsearch.js/es/widgets/sort-by/sort-by.js';
import stats from 'instantsearch.js/es/widgets/stats/stats.js';
import toggleRefinement from 'instantsearch.js/es/widgets/toggle-refinement/toggle-refinement.js';
import panel from 'instantsearch.js/es/widgets/panel/panel.js';
import type { Hit } from 'instantsearch.js';
import { LEVELS } from './category-path.js';
import { money, type Strings } from './i18n.js';
import type { WidgetOptions } from './options.js';

type ProductHit = Hit<{
  name: string;
  brand: string | null;
  price: number;
  sale_price: number | null;
  currency: string;
  in_stock: boolean;
  url: string | null;
  image_url: string | null;
}>;

/** The results page: facets (category tree, brand, price range, stock), sorting, stats, hits with click events, pagination. */
export function resultWidgets(o: WidgetOptions, t: Strings, root: HTMLElement) {
  const $ = (name: string) => root.querySelector<HTMLElement>(`.pss-${name}`)!;
  // panel() keeps the wrapped widget's own parameter types; only the header is added.
  const titled = <W>(title: string, widget: W): W => panel({ templates: { header: () => title } })(widget as never) as W;
  return [
    titled(
      t.categories,
      hierarchicalMenu,
    )({
      container: $('categories'),
      attributes: LEVELS,
      separator: '>',
      limit: 12,
      // Values are category keys; the endpoint labels them in the shopper's language (categoryLabels).
      transformItems: (items, { results }) => relabel(items, (results as unknown as { categoryLabels?: Record<string, string> })?.categoryLabels ?? {}),
    }),
    titled(
      t.brand,
      refinementList,
    )({
      container: $('brands'),
      attribute: 'brand',
      limit: 8,
      showMore: true,
      showMoreLimit: 30,
      templates: { showMoreText: ({ isShowingMore }) => (isShowingMore ? t.showLess : t.showMore) },
    }),
    titled(t.price, rangeInput)({ container: $('price'), attribute: 'price', templates: { separatorText: () => '–', submitText: () => t.go } }),
    toggleRefinement({ container: $('stock'), attribute: 'in_stock', on: true, templates: { labelText: () => t.inStock } }),
    stats({ container: $('stats'), templates: { text: ({ nbHits }, { html }) => html`${t.results(nbHits)}` } }),
    sortBy({
      container: $('sort'),
      items: [
        { label: t.relevance, value: o.index },
        { label: t.priceAsc, value: `${o.index}_price_asc` },
        { label: t.priceDesc, value: `${o.index}_price_desc` },
        { label: t.newest, value: `${o.index}_newest` },
        { label: t.popular, value: `${o.index}_popular` },
      ],
    }),
    hits<ProductHit>({
      container: $('hits'),
      templates: {
        item: (hit, { html, components, sendEvent }) =>
          html` <a
            class="pss-hit"
            href=${hit.url ?? `#product-${hit.objectID}`}
            data-id=${hit.objectID}
            onClick=${(e: MouseEvent) => clicked(e, root, hit, () => sendEvent('click', hit, 'Product Clicked'))}
          >
            <div class="pss-img">${hit.image_url ? html`<img src=${hit.image_url} alt="" loading="lazy" />` : ''}</div>
            <div class="pss-name">${components.Highlight({ hit, attribute: 'name' })}</div>
            ${hit.brand ? html`<div class="pss-brand">${hit.brand}</div>` : ''}
            <div class="pss-amount">
              ${hit.sale_price !== null ? html`<s>${money(hit.price, hit.currency, o.lang)}</s> <b>${money(hit.sale_price, hit.currency, o.lang)}</b>` : html`<b>${money(hit.price, hit.currency, o.lang)}</b>`}
            </div>
            ${hit.in_stock ? '' : html`<div class="pss-oos">${t.outOfStock}</div>`}
          </a>`,
        empty: () => '',
        // The notices show every banner (image and html, each position) once; InstantSearch would draw renderingContent's first image again.
        banner: () => '',
      },
    }),
    pagination({ container: $('pagination'), padding: 2, showFirst: false, showLast: false }),
  ];
}

/**
 * A result click: the Insights click event first (queryID and position come from the hit), then
 * a cancelable `pss:click` event on the widget so a single-page shop can route itself; otherwise
 * the link is followed.
 */
function clicked(e: MouseEvent, root: HTMLElement, hit: ProductHit, send: () => void) {
  send();
  const event = new CustomEvent('pss:click', {
    cancelable: true,
    bubbles: true,
    detail: { objectID: hit.objectID, queryID: hit.__queryID, position: hit.__position, url: hit.url },
  });
  if (!root.dispatchEvent(event)) e.preventDefault();
}

interface MenuItem {
  value: string;
  label: string;
  data: MenuItem[] | null;
  [k: string]: unknown;
}

function relabel<T extends MenuItem>(items: T[], labels: Record<string, string>): T[] {
  return items.map((i) => ({ ...i, label: labels[i.value] ?? i.label, data: i.data ? relabel(i.data, labels) : i.data }));
}

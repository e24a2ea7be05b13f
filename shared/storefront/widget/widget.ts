import InstantSearch from 'instantsearch.js/es/lib/InstantSearch.js';
import connectSearchBox from 'instantsearch.js/es/connectors/search-box/connectSearchBox.js';
import configure from 'instantsearch.js/es/widgets/configure/configure.js';
import { liteClient } from 'algoliasearch/lite';
import aa from 'search-insights';
import { startAutocomplete } from './autocomplete.js';
import { categoryKey, LEVELS } from './category-path.js';
import { strings } from './i18n.js';
import { serviceNotices } from './notices.js';
import { readOptions } from './options.js';
import { resultWidgets } from './results.js';

/**
 * The drop-in search widget: one script tag with data-app-id and data-api-key. It talks to the
 * service's Algolia-protocol endpoint with the official clients (algoliasearch lite, InstantSearch.js,
 * Autocomplete.js, search-insights), so what works here works for any InstantSearch front end.
 */
function start(script: HTMLScriptElement) {
  const o = readOptions(script);
  const t = strings(o.lang);
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = script.src.replace(/widget\.js(\?|$)/, 'widget.css$1');
  document.head.append(css);

  const root = document.createElement('div');
  root.className = 'pss';
  root.dir = o.rtl ? 'rtl' : 'ltr';
  root.lang = o.lang;
  // Plain divs only: a shop's own CSS for main, aside or section must not reach into the widget.
  root.innerHTML = `<div class="pss-box"></div><div class="pss-panel"></div><div class="pss-notices"></div>
    <div class="pss-layout"><div class="pss-facets"><div class="pss-categories"></div><div class="pss-brands"></div><div class="pss-price"></div><div class="pss-stock"></div></div>
    <div class="pss-main"><div class="pss-toolbar"><div class="pss-stats"></div><div class="pss-sort"></div></div><div class="pss-hits"></div><div class="pss-pagination"></div></div></div>`;
  o.target.append(root);
  const $ = (name: string) => root.querySelector<HTMLElement>(`.pss-${name}`)!;

  const api = new URL(o.host);
  const client = liteClient(o.appId, o.apiKey, {
    hosts: [{ url: api.host + api.pathname.replace(/\/$/, ''), protocol: api.protocol.slice(0, -1) as 'http' | 'https', accept: 'readWrite' }],
    // One host, no fallbacks to retry on: a store's first search after the service starts loads its search context, so allow it time.
    timeouts: { connect: 5000, read: 15000, write: 30000 },
  });
  const search = new InstantSearch({
    indexName: o.index,
    searchClient: client,
    insights: {
      insightsClient: aa as never,
      insightsInitParams: { host: o.host, useCookie: false } as never,
      // Hits widgets report every result shown as a view; those are impressions, not product views: only clicks and conversions are sent.
      onEvent: (event, client) => {
        if (event.insightsMethod && event.insightsMethod !== 'viewedObjectIDs')
          (client as (m: string, p: unknown) => void)(event.insightsMethod, event.payload);
      },
    },
  });

  let submitted: string | null = null;
  const setUiState = (state: Record<string, unknown>) => {
    search.setUiState((ui) => ({ ...ui, [o.index]: { ...ui[o.index], page: 1, ...state } }));
  };
  const ac = startAutocomplete(o, t, client, $('box'), $('panel'), {
    query: (q) => {
      submitted = q;
      setUiState({ query: q });
    },
    brand: (name) => {
      ac.setQuery('');
      setUiState({ query: '', refinementList: { brand: [name] } });
    },
    category: async (target, label) => {
      ac.setQuery(label);
      // A level key refines the category tree at once; a leaf category's id is looked up first (categoryKey).
      const key = target.startsWith('lvl:') ? target.slice(4) : await categoryKey(client, o.index, target, label).catch(() => null);
      if (key) setUiState({ query: '', hierarchicalMenu: { [LEVELS[0]]: key.split('>') } });
      else {
        submitted = label;
        setUiState({ query: label });
      }
    },
    product: (item) => {
      const event = new CustomEvent('pss:click', {
        cancelable: true,
        bubbles: true,
        detail: { objectID: item.objectID, url: item.url, source: 'suggestions' },
      });
      if (root.dispatchEvent(event) && item.url) location.assign(item.url);
    },
  });
  const setQuery = (q: string) => {
    ac.setQuery(q);
    submitted = q;
    setUiState({ query: q });
  };
  search.addWidgets([
    configure({ hitsPerPage: o.hitsPerPage }),
    connectSearchBox(() => {})({}),
    serviceNotices($('notices'), t, o.lang, { setQuery, submitted: () => submitted }),
    ...resultWidgets(o, t, root),
  ]);
  search.start();
  (window as unknown as { pssWidget?: unknown }).pssWidget = { search, autocomplete: ac, setQuery };
}

const script = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[data-app-id][src*="widget.js"]');
if (script) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => start(script));
  else start(script);
}

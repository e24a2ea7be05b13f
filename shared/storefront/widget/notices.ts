import type { Strings } from './i18n.js';

interface ExtraResults {
  query: string;
  nbHits: number;
  didYouMean?: string | null;
  zeroResultHelp?: { relaxed: boolean; popular_categories: Array<{ value: string; label: Record<string, string> | null }> } | null;
  banners?: Array<{ id: string; html?: string | null; image_url?: string | null; link_url?: string | null; position?: string }>;
  redirect?: { url: string } | null;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A custom InstantSearch widget for what the service adds to a result: did-you-mean, zero-result
 * help, merchandising banners (top, inline and bottom all shown above the hits) and redirects.
 * A redirect follows only a query the shopper submitted, and a `pss:redirect` listener may cancel it.
 */
export function serviceNotices(el: HTMLElement, t: Strings, lang: string, opts: { setQuery(q: string): void; submitted(): string | null }) {
  return {
    $$type: 'pss.notices',
    init() {},
    render({ results }: { results?: ExtraResults | null }) {
      if (!results) return;
      const parts: string[] = [];
      for (const b of results.banners ?? []) {
        const inner = b.html ?? (b.image_url ? `<img src="${esc(b.image_url)}" alt="">` : '');
        if (!inner) continue;
        parts.push(`<div class="pss-banner" data-banner="${esc(b.id)}">${b.link_url ? `<a href="${esc(b.link_url)}">${inner}</a>` : inner}</div>`);
      }
      if (results.didYouMean && results.didYouMean !== results.query) {
        parts.push(`<p class="pss-dym">${t.didYouMean} <a href="#" data-q="${esc(results.didYouMean)}">${esc(results.didYouMean)}</a>?</p>`);
      }
      const help = results.zeroResultHelp;
      if (help) {
        const cats = help.popular_categories.map((c) => {
          const label = c.label ? (c.label[lang] ?? c.label.en ?? Object.values(c.label)[0]) : c.value;
          return `<a href="#" data-q="${esc(label)}">${esc(label)}</a>`;
        });
        parts.push(
          `<div class="pss-zero"><p>${help.relaxed ? t.relaxed : t.noResults}</p>${!help.relaxed && cats.length ? `<p>${t.tryCategories} ${cats.join(' · ')}</p>` : ''}</div>`,
        );
      }
      el.innerHTML = parts.join('');
      el.querySelectorAll<HTMLAnchorElement>('a[data-q]').forEach((a) =>
        a.addEventListener('click', (e) => {
          e.preventDefault();
          opts.setQuery(a.dataset.q ?? '');
        }),
      );
      const redirect = results.redirect?.url;
      if (redirect && opts.submitted() === results.query) {
        const event = new CustomEvent('pss:redirect', { cancelable: true, bubbles: true, detail: { url: redirect, query: results.query } });
        if (el.dispatchEvent(event)) location.assign(redirect);
      }
    },
    dispose() {
      el.innerHTML = '';
    },
  };
}

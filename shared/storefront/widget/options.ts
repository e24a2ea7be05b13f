import { ALGOLIA_PREFIX } from '../protocol.js';

/** What one `<script src=".../widget.js" data-...>` tag configures. */
export interface WidgetOptions {
  appId: string;
  apiKey: string;
  /** Index name; sort and suggestions indices are derived from it. */
  index: string;
  lang: 'en' | 'ar' | string;
  rtl: boolean;
  /** Where the API is: the script's own origin unless data-host says otherwise. */
  host: string;
  hitsPerPage: number;
  target: HTMLElement;
}

/** Reads the data-attributes of the widget's script tag (data-app-id and data-api-key are required). */
export function readOptions(script: HTMLScriptElement): WidgetOptions {
  const d = script.dataset;
  if (!d.appId || !d.apiKey) throw new Error('widget.js needs data-app-id (the store id) and data-api-key (a public key)');
  const origin = d.host ?? new URL(script.src, location.href).origin;
  const lang = d.lang ?? (document.documentElement.lang || 'en').slice(0, 2);
  let target = d.target ? document.querySelector<HTMLElement>(d.target) : null;
  if (!target) {
    target = document.createElement('div');
    script.after(target);
  }
  return {
    appId: d.appId,
    apiKey: d.apiKey,
    index: d.index ?? 'products',
    lang,
    rtl: lang === 'ar' || d.dir === 'rtl',
    host: origin.replace(/\/$/, '') + ALGOLIA_PREFIX,
    hitsPerPage: Number(d.hitsPerPage ?? 12) || 12,
    target,
  };
}

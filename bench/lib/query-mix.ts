import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJudgments } from '../../scripts/eval/metrics.js';
import type { SearchInput } from '../../shared/search/index.js';

/**
 * bench/search's query mix, URL-encoded query strings (`q=` value and extra parameters): Chorus
 * queries, typo variants, Arabic queries, filters and facets; and suggest prefixes.
 */
export function queryMix(dataDir: string): { mix: string[]; prefixes: string[]; chorus: string[] } {
  const chorus = [...parseJudgments(readFileSync(join(dataDir, 'chorus-icecat', 'judgments-dev.csv'), 'utf8')).keys()];
  const typos = chorus.filter((q) => q.length > 5).map((q) => q.slice(0, 2) + q[3] + q[2] + q.slice(4));
  const arabic = ['ساعة', 'حذاء رياضي', 'قميص قطن', 'سماعة بلوتوث', 'هاتف سامسونج', 'شاشه تحت ٥٠٠'];
  const filtered = [
    'laptop&filter[price][lte]=500&facets=brand,price,category_tree',
    'cable&filter[brand]=StarTech.com,C2G&facets=brand,color',
    'watch&sort=price_asc',
    'shirt&filter[in_stock]=true&facets=brand,category_tree',
  ];
  const mix = [...chorus.map(encodeURIComponent), ...typos.map(encodeURIComponent), ...arabic.map(encodeURIComponent), ...filtered];
  const prefixes = chorus.flatMap((q) => [q.slice(0, 2), q.slice(0, 4), q]).map(encodeURIComponent);
  return { mix, prefixes, chorus };
}

/** A bench/search mix entry (`laptop&filter[price][lte]=500&facets=brand`) as a search input. */
export function toInput(entry: string): SearchInput {
  const params = new URLSearchParams(`q=${entry}`);
  const filters: SearchInput['filters'] = {};
  for (const [k, v] of params) {
    const m = /^filter\[([^\]]+)\](?:\[(gte|lte)\])?$/.exec(k);
    if (!m) continue;
    if (m[2]) filters[m[1]] = { ...(filters[m[1]] as object), [m[2]]: Number(v) };
    else filters[m[1]] = v === 'true' ? true : v.split(',');
  }
  return {
    q: params.get('q') ?? '',
    lang: 'auto',
    page: 1,
    perPage: 20,
    filters,
    sort: (params.get('sort') as SearchInput['sort']) ?? null,
    facets: params.get('facets')?.split(',') ?? null,
    session: null,
    debug: true,
    override: null,
    log: false,
    ai: 'off',
  };
}

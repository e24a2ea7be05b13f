/**
 * A storefront's search traffic: a Zipf-like choice among many distinct queries (a head asked
 * again and again, a long tail asked about once), refined by filters, paged, sorted and mistyped
 * as shoppers do. Seeded: two runs send the same requests.
 */
export interface TrafficOptions {
  /** Distinct queries, the head first (the most asked). */
  queries: string[];
  /** Brand names to refine by. */
  brands: string[];
  /** Zipf exponent: 1 gives the rank-1 query about a tenth of a 10,000-query mix. */
  exponent?: number;
  seed?: number;
}

/** What a request does beside its words, with its share of requests. */
const VARIANTS: Array<[string, number]> = [
  ['plain', 0.64],
  ['refine-brand', 0.08],
  ['refine-price', 0.06],
  ['in-stock', 0.04],
  ['page-2', 0.08],
  ['sort', 0.04],
  ['typo', 0.06],
];

export class TrafficMix {
  private cumulative: Float64Array;
  private rand: () => number;

  constructor(private opts: TrafficOptions) {
    const s = opts.exponent ?? 1;
    this.cumulative = new Float64Array(opts.queries.length);
    let sum = 0;
    opts.queries.forEach((_, i) => (this.cumulative[i] = sum += 1 / (i + 1) ** s));
    this.rand = mulberry32(opts.seed ?? 42);
  }

  /** The query string (`q=...&...`) of the next request, and its variant. */
  next(): { query: string; variant: string } {
    const q = this.opts.queries[this.pick()];
    let r = this.rand();
    let variant = 'plain';
    for (const [name, share] of VARIANTS) {
      if ((r -= share) < 0) {
        variant = name;
        break;
      }
    }
    const enc = encodeURIComponent;
    switch (variant) {
      case 'refine-brand':
        return { query: `q=${enc(q)}&filter[brand]=${enc(this.opts.brands[Math.floor(this.rand() * Math.min(40, this.opts.brands.length))])}`, variant };
      case 'refine-price':
        return { query: `q=${enc(q)}&filter[price][lte]=${[25, 50, 100, 250, 500][Math.floor(this.rand() * 5)]}`, variant };
      case 'in-stock':
        return { query: `q=${enc(q)}&filter[in_stock]=true`, variant };
      case 'page-2':
        return { query: `q=${enc(q)}&page=2`, variant };
      case 'sort':
        return { query: `q=${enc(q)}&sort=${this.rand() < 0.5 ? 'price_asc' : 'price_desc'}`, variant };
      case 'typo':
        return { query: `q=${enc(typo(q, this.rand))}`, variant };
      default:
        return { query: `q=${enc(q)}`, variant };
    }
  }

  /** Share of requests the first `n` queries get (before variants). */
  headShare(n: number): number {
    return this.cumulative[Math.min(n, this.cumulative.length) - 1] / this.cumulative[this.cumulative.length - 1];
  }

  private pick(): number {
    const target = this.rand() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Two neighbouring letters of the longest word swapped, or one dropped ("lpatop", "laptp"). */
function typo(q: string, rand: () => number): string {
  const words = q.split(' ');
  const i = words.reduce((best, w, j) => (w.length > words[best].length ? j : best), 0);
  const w = words[i];
  if (w.length < 4) return q;
  const at = 1 + Math.floor(rand() * (w.length - 2));
  words[i] = rand() < 0.5 ? w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2) : w.slice(0, at) + w.slice(at + 1);
  return words.join(' ');
}

/** A small seeded generator (Mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Distinct shopper queries from a catalog's product names and brands: the judged queries first
 * (the head), then one to three opening words of names and "brand + word", in a seeded order.
 */
export function queriesFrom(products: Array<{ name: string; brand?: string | null }>, head: string[], seed = 7): string[] {
  const rand = mulberry32(seed);
  const seen = new Set(head.map((q) => q.toLowerCase()));
  const tail: string[] = [];
  for (const p of products) {
    const words = p.name
      .toLowerCase()
      .replace(/[^\p{L}\p{N} ]+/gu, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 1);
    if (!words.length) continue;
    const n = 1 + Math.floor(rand() * 3);
    const q = rand() < 0.2 && p.brand ? `${p.brand.toLowerCase()} ${words[words.length - 1]}` : words.slice(0, n).join(' ');
    if (!seen.has(q)) {
      seen.add(q);
      tail.push(q);
    }
  }
  for (let i = tail.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [tail[i], tail[j]] = [tail[j], tail[i]];
  }
  return [...head, ...tail];
}

import t from 'tap';
import { SuggestDictionary } from '../../shared/search/suggest-dictionary.js';
import type { SuggestRow } from '../../shared/search/vocabulary.repo.js';

const row = (kind: SuggestRow['kind'], norm: string, weight: number, target: string | null = null): SuggestRow => ({
  kind,
  norm,
  display: norm,
  target,
  weight,
});

/** The former SQL's rule, written plainly: starts-with (best 2*limit), then later word starts from 3 characters (best limit). */
function reference(rows: SuggestRow[], prefix: string, limit: number): SuggestRow[] {
  const byWeight = (a: SuggestRow, b: SuggestRow) =>
    b.weight - a.weight ||
    (a.norm < b.norm ? -1 : a.norm > b.norm ? 1 : 0) ||
    ['query', 'brand', 'category'].indexOf(a.kind) - ['query', 'brand', 'category'].indexOf(b.kind);
  const head = rows
    .filter((r) => r.norm.startsWith(prefix))
    .sort(byWeight)
    .slice(0, 2 * limit);
  const inner =
    prefix.length >= 3
      ? rows
          .filter((r) => !r.norm.startsWith(prefix) && r.norm.includes(` ${prefix}`))
          .sort(byWeight)
          .slice(0, limit)
      : [];
  return [...head, ...inner].slice(0, 2 * limit);
}

t.test('starts-with first by weight, then later word starts from 3 characters', async (t) => {
  const dict = new SuggestDictionary([
    row('query', 'samsung galaxy', 3),
    row('brand', 'samsung', 5, 'Samsung'),
    row('query', 'samsung', 5),
    row('query', 'galaxy buds', 20),
    row('category', 'smart watches', 2, 'watches'),
    row('query', 'buds galaxy galaxy', 1),
  ]);
  t.same(
    dict.complete('sam', 8).map((r) => `${r.kind}:${r.norm}`),
    ['query:samsung', 'brand:samsung', 'query:samsung galaxy'],
  );
  t.same(
    dict.complete('gal', 8).map((r) => r.norm),
    ['galaxy buds', 'samsung galaxy', 'buds galaxy galaxy'],
    'a word start counts once per entry',
  );
  t.same(
    dict.complete('ga', 8).map((r) => r.norm),
    ['galaxy buds'],
    'two characters: starts only',
  );
  t.same(
    dict.complete('samsung g', 8).map((r) => r.norm),
    ['samsung galaxy'],
    'a prefix may span words',
  );
  t.same(
    dict.complete('wat', 8).map((r) => r.target),
    ['watches'],
  );
  t.same(
    dict.complete('s', 1).map((r) => r.norm),
    ['samsung', 'samsung'],
    'at most 2 * limit rows',
  );
  t.same(dict.complete('zzz', 8), []);
  t.same(new SuggestDictionary([]).complete('a', 8), []);
});

t.test('same rows as the plain rule on random dictionaries, Arabic and astral characters too', async (t) => {
  const letters = ['a', 'b', 'c', ' ', 'ا', 'ب', 'ه', '😀', 'é'];
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let round = 0; round < 20; round++) {
    const rows = new Map<string, SuggestRow>();
    for (let i = 0; i < 300; i++) {
      const norm = Array.from({ length: 1 + rand(9) }, () => letters[rand(letters.length)])
        .join('')
        .replace(/ +/g, ' ')
        .trim();
      if (!norm) continue;
      const kind = (['query', 'brand', 'category'] as const)[rand(3)];
      rows.set(`${kind}:${norm}`, row(kind, norm, rand(5)));
    }
    const dict = new SuggestDictionary([...rows.values()]);
    for (const r of [...rows.values()].slice(0, 60)) {
      for (let n = 1; n <= r.norm.length; n++) {
        const prefix = r.norm.slice(0, n).trim();
        if (!prefix) continue;
        const limit = 1 + rand(6);
        const got = dict.complete(prefix, limit);
        const want = reference([...rows.values()], prefix, limit);
        if (JSON.stringify(got) !== JSON.stringify(want)) t.fail(`prefix ${JSON.stringify(prefix)} limit ${limit}`, { got, want });
      }
    }
  }
  t.pass('compared');
});

t.test('answers are kept per dictionary, the most recently used ones', async (t) => {
  const dict = new SuggestDictionary([row('query', 'samsung', 1)]);
  let made = 0;
  const make = () => ({ n: ++made });
  const first = dict.memo('sam', make);
  t.equal(dict.memo('sam', make), first, 'made once');
  for (let i = 0; i < 999; i++) dict.memo(`k${i}`, make);
  t.equal(dict.memo('sam', make), first, 'used again, so kept at the front');
  dict.memo('k1000', make);
  dict.memo('k0', make);
  t.equal(made, 1002, 'k0 was the least recently used and was dropped');
  t.not(new SuggestDictionary([]).memo('sam', make), first, 'a rebuilt dictionary starts empty');
});

import t from 'tap';
import { TypoIndex } from '../../shared/text/typo-index.js';

const vocab = new Map([
  ['laptop', 40],
  ['laptops', 12],
  ['headphones', 30],
  ['headphone', 8],
  ['lamp', 5],
  ['camera', 25],
  ['cameras', 9],
  ['tablet', 20],
  ['table', 3],
]);
const index = new TypoIndex(vocab);
const terms = (word: string) => index.candidates(word).map((c) => c.term);

t.test('one edit from 4 characters: substitution, insertion, deletion and transposition', async (t) => {
  t.same(terms('labtop')[0], 'laptop');
  t.same(terms('lapotp')[0], 'laptop', 'transposition, which trigram similarity alone would miss');
  t.same(terms('camra')[0], 'camera');
  t.same(terms('tablett')[0], 'tablet');
});

t.test('two edits only from 8 characters', async (t) => {
  t.same(terms('hedphonse')[0], 'headphones');
  t.same(terms('labtopp'), [], 'a 7-character word gets one edit, and labtopp is two away');
});

t.test('no candidates for short words or far words; closest first, then most frequent', async (t) => {
  t.same(terms('lap'), []);
  t.same(terms('zzzzzz'), []);
  t.same(terms('tabel'), ['table'], 'tabel is one transposition from table, two from tablet');
  t.same(terms('laptopx'), ['laptop', 'laptops'], 'equal distance: the more frequent first');
});

t.test('equally close: a term keeping the first letter before a more frequent one that changes it', async (t) => {
  const phones = new TypoIndex(
    new Map([
      ['phone', 103],
      ['iphone', 36],
      ['wall', 90],
      ['small', 75],
    ]),
  );
  const first = (word: string) => phones.candidates(word)[0]?.term;
  t.equal(first('ihone'), 'iphone', 'a letter left out (iphone), not the first one struck wrong (phone, three times as frequent)');
  t.equal(first('sall'), 'small', 'small, not wall');
  t.equal(first('phoen'), 'phone', 'the first letter kept by both readings: the closer, then the more frequent');
});

t.test('lookups do not leak state into each other', async (t) => {
  const first = terms('camra');
  terms('headphonez');
  t.same(terms('camra'), first);
});

t.test('correction: the closest, most frequent term, or null', async (t) => {
  t.equal(index.correction('laptopx'), 'laptop');
  t.equal(index.correction('lap'), null);
  t.equal(index.correction('zzzzzz'), null);
});

t.test("prefixCorrection: the closest, then most frequent, term whose start is within the typed prefix's budget", async (t) => {
  const ix = new TypoIndex(
    new Map([
      ['bluetooth', 20],
      ['blue', 300],
      ['blu', 3],
      ['headphones', 60],
      ['headset', 10],
      ['kurta', 200],
      ['kurti', 150],
    ]),
  );
  t.equal(ix.prefixCorrection('blutoo'), 'bluetooth', '"blueto" is one edit away');
  t.equal(ix.prefixCorrection('hedpho'), 'headphones');
  t.equal(ix.prefixCorrection('krta'), 'kurta', 'the more frequent of two as close');
  t.equal(ix.prefixCorrection('blueto'), null, 'a prefix of a term as typed needs no correction');
  t.equal(ix.prefixCorrection('kur'), null, 'no budget below 4 characters');
  t.equal(ix.prefixCorrection('xyzw'), null);
});

t.test('a large vocabulary: the terms checked are those a full sort by shared grams, then frequency, puts first', async (t) => {
  // 5,000 words over a small alphabet, so a probe's grams touch thousands of terms, hundreds of them sharing several.
  let seed = 7;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const letters = 'abcdef';
  const words = new Map<string, number>();
  while (words.size < 5000) {
    const len = 4 + Math.floor(rand() * 7);
    let w = '';
    for (let i = 0; i < len; i++) w += letters[Math.floor(rand() * letters.length)];
    words.set(w, 1 + Math.floor(rand() * 5));
  }
  const ix = new TypoIndex(words);
  const list = [...words.keys()];
  const grams = (w: string) => {
    const padded = `  ${w} `;
    return [...new Set(Array.from({ length: padded.length - 2 }, (_, i) => padded.slice(i, i + 3)))];
  };
  const wordGrams = list.map((w) => new Set(grams(w)));
  // The reference: terms in order of first touch (postings are in term order, walked in the probe's gram order),
  // sorted whole (stable) by shared grams, then frequency; the first 64.
  const firstTouch = (gs: string[], fits: (n: number) => boolean) => {
    const order: number[] = [];
    const seen = new Set<number>();
    for (const g of gs) list.forEach((w, i) => fits(w.length) && wordGrams[i].has(g) && !seen.has(i) && (seen.add(i), order.push(i)));
    return order;
  };
  const mostShared = (ix as unknown as { mostShared: (g: string[], shortest: number, longest: number) => number[] }).mostShared.bind(ix);
  let compared = 0;
  for (let k = 0; k < 40; k++) {
    const word = list[Math.floor(rand() * list.length)];
    const probe = word.slice(0, 2) + letters[k % letters.length] + word.slice(3);
    const fits = (n: number) => Math.abs(n - probe.length) <= 1;
    const gs = grams(probe);
    const order = firstTouch(gs, fits);
    const count = new Map(order.map((i) => [i, gs.filter((g) => wordGrams[i].has(g)).length]));
    const expected = [...order].sort((a, b) => count.get(b)! - count.get(a)! || words.get(list[b])! - words.get(list[a])!).slice(0, 64);
    t.same(mostShared(gs, probe.length - 1, probe.length + 1), expected, probe);
    // Probes whose 64th term shares more than one gram: only part of the touched terms is sorted.
    compared += (count.get(expected[63]) ?? 0) > 1 ? 1 : 0;
  }
  t.ok(compared > 20, `most probes cut above one shared gram (${compared} of 40)`);
});

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

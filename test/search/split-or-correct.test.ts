import t from 'tap';
import { planQuery } from '../../shared/search/query-plan.js';
import { measureTerms } from '../../shared/search/steps/fallback.step.js';
import { Vocabulary } from '../../shared/search/vocabulary.js';

const vocab = new Vocabulary(
  new Map([
    ['blu', 3],
    ['tooth', 2],
    ['bluetooth', 20],
    ['head', 4],
    ['set', 9],
    ['speaker', 12],
  ]),
  40,
);
const plan = (q: string) => planQuery({ tokens: q.split(' '), terms: vocab.terms, typoTolerance: true, correct: (w) => vocab.typos.correction(w) });

t.test('an unknown word that splits into known words and has a correction gets both readings', async (t) => {
  const p = plan('blutooth speaker');
  t.same(p.terms[0], { alternatives: [['blutooth'], ['blu', 'tooth'], ['bluetooth']], phrase: true });
  t.same(p.compounds, ['blu tooth']);
  t.same(p.corrections, [{ from: 'blutooth', to: 'bluetooth' }]);
});

t.test('a split without a correction, and none without typo tolerance', async (t) => {
  t.same(plan('headset').terms[0], { alternatives: [['headset'], ['head', 'set']], phrase: true }, 'no known word within its typo budget');
  const off = planQuery({ tokens: ['blutooth'], terms: vocab.terms, typoTolerance: false, correct: (w) => vocab.typos.correction(w) });
  t.same(off.terms[0], { alternatives: [['blutooth'], ['blu', 'tooth']], phrase: true });
  t.same(off.corrections, []);
});

t.test("a word typed without its hyphens also matches the store's hyphenated writing when that is the usual one", async (t) => {
  const v = new Vocabulary(
    new Map([
      ['t-shirts', 1072],
      ['t-shirt', 1214],
      ['tshirts', 2],
      ['wi-fi', 11],
      ['wifi', 30],
      ['e-1700-906', 1],
      ['router', 19],
    ]),
    5000,
  );
  t.equal(v.hyphenated('tshirts'), 't-shirts', '2 products write tshirts, 1,072 t-shirts');
  t.equal(v.hyphenated('tshirt'), 't-shirt', 'unknown as typed');
  t.equal(v.hyphenated('wifi'), null, 'the store writes wifi more often than wi-fi: as typed');
  t.equal(v.hyphenated('e1700906'), 'e-1700-906', 'a code typed without its hyphens too (test/search/codes.test.ts)');
  const p = planQuery({ tokens: ['tshirts'], terms: v.terms, typoTolerance: true, correct: () => null, hyphenated: (w) => v.hyphenated(w) });
  t.same(p.terms, [{ alternatives: [['tshirts'], ['t-shirts'], ['t-shirt']] }], "and the singular's writing (a hyphenated plural has no stem of its own)");
});

t.test('an intent word is never a brand word, however many names open with it', async (t) => {
  const v = new Vocabulary(
    new Map([
      ['womens', 10],
      ['zeno', 5],
    ]),
    300,
    new Map(),
    0,
    new Map([
      ['womens', 9],
      ['zeno', 5],
    ]),
  );
  t.equal(v.isOpener('zeno'), true);
  t.equal(v.isOpener('womens'), false, '"Womens Trendz" opens 9 of the 10 names with the word');
});

t.test('a measure (a number and the unit after it) is marked so that alone it makes no match', async (t) => {
  const terms = (q: string) => q.split(' ').map((w) => ({ alternatives: [[w]] }));
  t.same(measureTerms(terms('32 gb pen drive')), [true, true, false, false]);
  t.same(measureTerms(terms('water bottle 500 ml')), [false, false, true, true]);
  t.same(measureTerms(terms('iphone 6 case')), [false, false, false], 'a number without a unit stays a word of the query');
  t.same(measureTerms(terms('gb jewellery')), [false, false], 'a unit without its number too');
});

t.test('a word the store writes with hyphens is no typo, and its plural finds the singular the store writes', async (t) => {
  // The store writes "T-Shirt" 51 times, "T-Shirts" once, and "shirt" often: "tshirt" is not "shirt".
  const v = new Vocabulary(
    new Map([
      ['t-shirt', 51],
      ['t-shirts', 1],
      ['shirt', 188],
    ]),
    1000,
  );
  const p = (q: string) => planQuery({ tokens: [q], terms: v.terms, typoTolerance: true, correct: () => 'shirt', hyphenated: (w) => v.hyphenated(w) });
  t.same(p('tshirt').terms, [{ alternatives: [['tshirt'], ['t-shirt']] }]);
  t.same(p('tshirt').corrections, []);
  t.same(p('tshirts').terms, [{ alternatives: [['tshirts'], ['t-shirts'], ['t-shirt']] }], 'the plural and the singular writing');
  t.same(p('shrt').corrections, [{ from: 'shrt', to: 'shirt' }], 'a word with no hyphenated writing is still corrected');
});

t.test("a word only the store's descriptions have is the last-resort correction", async (t) => {
  // Names say "headphones", "sofa", "head", "set"; only descriptions say "earbuds", "soft" (many times) and "headsets".
  const v = new Vocabulary(
    new Map([
      ['headphones', 30],
      ['sofa', 4],
      ['sony', 9],
      ['head', 4],
      ['set', 9],
    ]),
    100,
    new Map(),
    0,
    new Map(),
    new Map(),
    new Map([
      ['earbuds', 12],
      ['soft', 60],
      ['headsets', 5],
    ]),
  );
  const p = (q: string) =>
    planQuery({
      tokens: q.split(' '),
      terms: v.terms,
      typoTolerance: true,
      correct: (w) => v.typos.correction(w),
      correctFromDescriptions: (w) => v.descriptionCorrection(w),
    });
  t.same(p('sony earbus').corrections, [{ from: 'earbus', to: 'earbuds' }]);
  t.same(p('sony earbus').terms[1], { alternatives: [['earbus'], ['earbuds']] });
  t.same(p('sofs').corrections, [{ from: 'sofs', to: 'sofa' }], 'a name word one edit away wins over a description word one edit away, however frequent');
  t.same(p('earbuds').corrections, [], 'a word the descriptions have is no typo');
  t.equal(v.descriptionCorrection('earbuds'), null);
  t.equal(v.descriptionCorrection('sofs'), 'soft', 'the description words alone would have read it so');
  t.same(p('headsetz').corrections, [{ from: 'headsetz', to: 'headsets' }]);
  t.same(
    p('headset').terms[0],
    { alternatives: [['headset'], ['head', 'set']], phrase: true },
    'a word that splits into catalog words is read so, not by the descriptions',
  );
  t.ok(v.correctionConfidence('earbuds') < v.correctionConfidence('sofa'), 'a description word is a less sure correction than a name word');
  t.ok(v.correctionConfidence('earbuds') < 1 / 3, '... than one on a single product too');
  t.ok(v.correctionConfidence('earbuds') > 0);
  const off = planQuery({
    tokens: ['earbus'],
    terms: v.terms,
    typoTolerance: false,
    correct: () => null,
    correctFromDescriptions: (w) => v.descriptionCorrection(w),
  });
  t.same(off.corrections, [], 'no correction without typo tolerance');
});

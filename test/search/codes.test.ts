import t from 'tap';
import { planQuery } from '../../shared/search/query-plan.js';
import { Vocabulary } from '../../shared/search/vocabulary.js';

// Model codes as stores write them (the tokenizer keeps "tn-2110" and "sm-g980f" whole; "RTX 2060"
// is two words) and as shoppers type them.
const vocab = new Vocabulary(
  new Map([
    ['tn-2110', 1],
    ['tn', 3],
    ['sm-g980f', 3],
    ['rtx', 60],
    ['2060', 14],
    ['usb', 900],
    ['stick', 40],
    ['usb-stick', 2],
    ['toner', 300],
  ]),
  2000,
);
const plan = (q: string) =>
  planQuery({ tokens: q.split(' '), terms: vocab.terms, typoTolerance: true, correct: () => null, hyphenated: (w) => vocab.hyphenated(w) }).terms;

t.test("a code typed without its hyphens also matches the store's hyphenated writing", async (t) => {
  t.equal(vocab.hyphenated('tn2110'), 'tn-2110');
  t.equal(vocab.hyphenated('smg980f'), 'sm-g980f');
  t.same(plan('tn2110 toner')[0], { alternatives: [['tn2110'], ['tn-2110']], exact: true });
  t.same(plan('smg980f')[0], { alternatives: [['smg980f'], ['sm-g980f']], exact: true });
  t.same(plan('xz2110')[0], { alternatives: [['xz2110']], exact: true }, 'a code the store does not write: as typed');
});

t.test('a code typed with a space matches the hyphenated writing too, as the index keeps its digits only with the hyphen', async (t) => {
  t.same(plan('tn 2110 toner')[0], { alternatives: [['tn', '2110'], ['tn-2110']], phrase: true });
  t.same(plan('tn 2110 toner').length, 2);
});

t.test('a code of letters and digits typed together matches them apart, as a phrase, when the store has both', async (t) => {
  t.same(plan('rtx2060')[0], { alternatives: [['rtx2060'], ['rtx', '2060']], exact: true, phrase: true });
  t.same(plan('gtx1060')[0], { alternatives: [['gtx1060']], exact: true }, '"gtx" is no word of this store');
  // A lone digit is too short for the vocabulary to count: known as any number is.
  const v = new Vocabulary(
    new Map([
      ['iphone', 300],
      ['case', 400],
    ]),
    2000,
  );
  const p = (q: string) => planQuery({ tokens: q.split(' '), terms: v.terms, typoTolerance: true, correct: () => null }).terms;
  t.same(p('iphone5 case')[0], { alternatives: [['iphone5'], ['iphone', '5']], exact: true, phrase: true }, '"iPhone 5"');
  t.same(p('x5 case')[0], { alternatives: [['x5']], exact: true }, 'one letter is no word');
});

t.test('two words of letters stay two words when the store hyphenates them', async (t) => {
  t.same(plan('usb stick'), [{ alternatives: [['usb']] }, { alternatives: [['stick']] }], '"USB flash drive ... stick" names have both words, not the phrase');
});

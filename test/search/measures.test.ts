import t from 'tap';
import { equivalentMeasures, gluedMeasure, isMeasure, isMeasurePair } from '../../shared/text/measure.js';
import { planQuery } from '../../shared/search/query-plan.js';
import { measureTerms } from '../../shared/search/steps/fallback.step.js';
import { Vocabulary } from '../../shared/search/vocabulary.js';

// A measure is a number and a unit name, written apart ("32 GB") or glued ("32GB"); stores write both.

t.test('measures apart and glued', async (t) => {
  t.ok(isMeasurePair('32', 'gb'));
  t.ok(isMeasurePair('2.5', 'mm'));
  t.notOk(isMeasurePair('6', 'case'), 'a number before a word that is no unit');
  t.notOk(isMeasurePair('gb', '32'));
  t.same(gluedMeasure('16gb'), ['16', 'gb']);
  t.same(gluedMeasure('500ml'), ['500', 'ml']);
  t.same(gluedMeasure('1,5l'), ['1,5', 'l']);
  t.equal(gluedMeasure('5s'), null, 'a size letter measures nothing ("iphone 5s")');
  t.equal(gluedMeasure('2x'), null);
  t.notOk(isMeasurePair('5', 's'));
  t.equal(gluedMeasure('rtx2060'), null, 'a model code');
  t.equal(gluedMeasure('ps4'), null, 'letters first');
  t.equal(gluedMeasure('16gbx'), null, 'no unit name');
  t.ok(isMeasure(['32', 'gb']));
  t.ok(isMeasure(['32gb']));
  t.notOk(isMeasure(['32']));
  t.notOk(isMeasure(['usb', 'stick']));
});

// The store writes "16GB" in some names and "16 GB" in others (both words known).
const vocab = new Vocabulary(
  new Map([
    ['16gb', 40],
    ['16', 300],
    ['gb', 900],
    ['memory', 200],
    ['card', 400],
    ['pen', 30],
    ['drive', 120],
  ]),
  2000,
);
const plan = (q: string, terms = vocab.terms) => planQuery({ tokens: q.split(' '), terms, typoTolerance: true, correct: () => null });

t.test('a measure typed apart also matches the glued writing the store uses, as one term', async (t) => {
  const p = plan('16 gb memory card');
  t.same(p.terms[0], { alternatives: [['16', 'gb'], ['16gb']], phrase: true }, 'the two words as a phrase, or the one word');
  t.same(p.terms.length, 3);
  t.same(p.compounds, ['16gb']);
  // A store that never glues its measures: one term still, its words a phrase ("1 litre" is not any "1").
  const apartOnly = new Map([...vocab.terms].filter(([w]) => w !== '16gb'));
  t.same(plan('16 gb memory card', apartOnly).terms[0], { alternatives: [['16', 'gb']], phrase: true });
  t.same(plan('16 gb memory card', apartOnly).compounds, []);
});

t.test('a measure typed glued also matches its words apart, as a phrase', async (t) => {
  t.same(plan('16gb memory card').terms[0], { alternatives: [['16gb'], ['16', 'gb']], exact: true, phrase: true });
  t.same(plan('rtx2060 card').terms[0], { alternatives: [['rtx2060']], exact: true }, 'a model code is no measure');
  const noUnit = new Map([...vocab.terms].filter(([w]) => w !== 'gb'));
  t.same(plan('16gb memory card', noUnit).terms[0], { alternatives: [['16gb']], exact: true }, 'the store never writes the unit apart');
});

t.test('a measure is as rare as its glued writing, not as common as its number and unit', async (t) => {
  const measure = plan('16 gb memory card').terms[0];
  t.equal(vocab.termWeight(measure), Math.round(vocab.idf('16gb') * 1000) / 1000);
  t.equal(vocab.termWeight(plan('16gb memory card').terms[0]), Math.round(vocab.idf('16gb') * 1000) / 1000, 'typed glued: the same');
  t.ok(vocab.termWeight(measure) > vocab.termWeight({ alternatives: [['card']] }), 'rarer than "card"');
  t.ok(vocab.idf('gb') < vocab.idf('card'), 'where its unit alone is more common than "card"');
});

t.test('matching any word, a measure alone makes no match, whichever way it was planned', async (t) => {
  t.same(measureTerms(plan('16 gb pen drive').terms), [true, false, false], 'one term: the measure');
  const apartOnly = new Map([...vocab.terms].filter(([w]) => w !== '16gb'));
  t.same(measureTerms(plan('16 gb pen drive', apartOnly).terms), [true, false, false], 'the store writes it apart only: the same');
  t.same(measureTerms(plan('16gb pen drive').terms), [true, false, false], 'typed as one word: the same');
});

t.test('a unit name the store does not use is no typo', async (t) => {
  const v = new Vocabulary(
    new Map([
      ['lite', 30],
      ['water', 50],
      ['bottle', 60],
    ]),
    500,
  );
  const p = planQuery({ tokens: ['water', 'bottle', '1', 'litre'], terms: v.terms, typoTolerance: true, correct: (w) => v.typos.correction(w) });
  t.same(p.corrections, [], '"litre" is not "lite"');
  t.same(p.terms[2], { alternatives: [['1', 'litre']], phrase: true });
  t.same(
    planQuery({ tokens: ['wter'], terms: v.terms, typoTolerance: true, correct: (w) => v.typos.correction(w) }).corrections,
    [{ from: 'wter', to: 'water' }],
    'other words still are',
  );
});

t.test('the same measure in the other units of its quantity', async (t) => {
  const units = (n: string, u: string) => Object.fromEntries(equivalentMeasures(n, u).map(([a, b]) => [b, a]));
  t.match(units('1', 'litre'), { ml: '1000', l: '1', ltr: '1', liter: '1' });
  t.match(units('0.5', 'kg'), { g: '500', gm: '500' });
  t.equal(units('1', 'ml').l, undefined, '0.001 l: more than two decimals, no store writes it');
  t.equal(units('250', 'ml').l, '0.25');
  t.match(units('2', 'tb'), { gb: '2000' });
  t.equal(units('1,5', 'l').ml, '1500', 'a decimal comma');
  t.same(equivalentMeasures('3', 'oz'), [], 'no known quantity');
  t.equal(units('99999999999999999999', 'tb').kb, undefined, 'past the safe integers: no "1e+29"');
  const v = new Vocabulary(
    new Map([
      ['ml', 900],
      ['1000ml', 3],
      ['water', 50],
    ]),
    1000,
  );
  const p = (q: string) => planQuery({ tokens: q.split(' '), terms: v.terms, typoTolerance: true, correct: () => null });
  t.same(p('1 litre water').terms[0], { alternatives: [['1', 'litre'], ['1000ml'], ['1000', 'ml']], phrase: true }, 'only the units the store writes');
  t.same(p('1l water').terms[0], { alternatives: [['1l'], ['1000ml'], ['1000', 'ml']], exact: true, phrase: true });
});

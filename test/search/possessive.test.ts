import t from 'tap';
import { planQuery, possessive } from '../../shared/search/query-plan.js';

const terms = new Map([
  ['levi', 40],
  ['women', 90],
  ['pad', 30],
  ['jeans', 20],
]);

t.test('a word without its apostrophe also matches the possessive, as a phrase', async (t) => {
  t.same(possessive('levis', terms), ['levi', 's']);
  t.equal(possessive('womens', terms), null, "its stem (women) already meets women's");
  t.equal(possessive('jeans', terms), null, 'jean is no catalog word');
  t.equal(possessive('levi', terms), null, 'no final s');
  t.equal(possessive('xs', terms), null, 'too short');
  t.equal(possessive('505s', terms), null, 'letters only');
  const plan = planQuery({ tokens: ['levis', 'jeans'], terms, typoTolerance: false, correct: () => null });
  t.same(plan.terms[0], { alternatives: [['levis'], ['levi', 's']], phrase: true });
  t.same(plan.terms[1], { alternatives: [['jeans']] });
});

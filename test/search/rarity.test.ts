import t from 'tap';
import { markPrepositions, markQualifier, qualifierAt, Vocabulary } from '../../shared/search/vocabulary.js';
import { typeFirst } from '../../shared/search/steps/fallback.step.js';
import {
  coverageSql,
  coverageWeights,
  DESCRIPTION_COVERAGE,
  headHit,
  nameLengthFactor,
  openerHit,
  orderBy,
  partialHeadFactor,
  partialOpenerFactor,
  rarityShares,
} from '../../shared/engines/lexical/postgres.sql.js';

// A store of 1,000 products: "pad" in 300 names (the head of 200), "skateboard" in 4 (the head of 3),
// "outdoor" in 40 (the head of 1), "cover" in 100 (the head of 60).
const vocab = new Vocabulary(
  new Map([
    ['pad', 280],
    ['pads', 20],
    ['skateboard', 4],
    ['outdoor', 40],
    ['cover', 100],
    ['table', 90],
  ]),
  1000,
  new Map([
    ['pad', 190],
    ['pads', 10],
    ['skateboard', 3],
    ['outdoor', 1],
    ['cover', 60],
    ['table', 30],
  ]),
);
const term = (...words: string[]) => ({ alternatives: [words] });

t.test('rarity: BM25 idf over the store, a word counted with its other forms', async (t) => {
  t.ok(vocab.idf('skateboard') > 2 * vocab.idf('pads'), 'the rare word weighs more than twice the common one');
  t.equal(vocab.docFreq('pads'), 300, 'pads is counted with pad');
  t.equal(vocab.idf('unknown'), vocab.idf('never-seen'), 'unknown words are as rare as can be');
  t.equal(new Vocabulary(new Map([['pad', 3]])).idf('pad'), 1, 'no product count: every word weighs 1');
  t.equal(
    vocab.termWeight({ alternatives: [['pads'], ['skateboard']] }),
    Math.round(vocab.idf('pads') * 1000) / 1000,
    'a term is as broad as its broadest alternative',
  );
});

t.test('product types: the head of enough of the products that carry the word', async (t) => {
  t.ok(vocab.isType('pads'), 'pad is the head of 200 of 300');
  t.ok(vocab.isType('skateboard'));
  t.notOk(vocab.isType('outdoor'), 'in 40 names, the head of one');
  t.same(vocab.queryHead(['skateboard', 'pads']).slice(0, 1), ['pads'], 'the last word that is a type');
  t.same(vocab.queryHead(['cover', 'outdoor']).slice(0, 1), ['cover'], 'a word that is no type is skipped');
  t.same(vocab.queryHead(['pads', 'for', 'skateboard']).slice(0, 1), ['pads'], 'what follows "for" qualifies it');
  t.same(vocab.queryHead(['unknown']), [], 'no type: nothing to boost');
});

t.test('partial matching: the rarest word counts a full unit, others by their rarity', async (t) => {
  const [rare, common] = coverageWeights([{ weight: vocab.idf('skateboard') }, { weight: vocab.idf('pads') }]);
  t.equal(rare.weight, 2);
  t.ok(common.weight < 1, 'a common word alone covers less than half of what the rare one does');
  t.same(
    coverageWeights([{ weight: 3 }, { weight: 3 }]).map((x) => x.weight),
    [2, 2],
    'equal words count alike (matched-word count)',
  );
  t.same(
    rarityShares([{ weight: 3 }, { weight: 1 }]).map((x) => x.weight),
    [0.625, 0.375],
    'field scoring: rank shares half equal, half by rarity',
  );
});

t.test('the product type weighs at least as much as a modifier in the fallback; a rarer type still wins', async (t) => {
  const weighed = (terms: Array<{ alternatives: string[][] }>) => terms.map((x) => ({ ...x, weight: vocab.termWeight(x) }));
  const [outdoor, table, cover] = typeFirst(weighed([term('outdoor'), term('table'), term('cover')]), 'cover', vocab);
  t.equal(cover.weight, outdoor.weight, 'cover is raised to the rarity of outdoor');
  t.ok(table.weight! < outdoor.weight!, 'another type is left as it is');
  const [skate, pads] = typeFirst(weighed([term('skateboard'), term('pads')]), 'pads', vocab);
  t.ok(skate.weight! > pads.weight!, 'both are types: the rare one still outweighs');
});

t.test('the engine boosts the type in all-word queries, and only breaks coverage ties when matching any word', async (t) => {
  const boost = { inStockFirst: false, popularity: 0, margin: 0, heads: ['pads', 'pad'] };
  t.same(headHit({ boost })?.bindings, [['pads', 'pad']]);
  t.equal(headHit({ boost, matchAny: true }), null);
  t.ok(partialHeadFactor({ boost, matchAny: true })?.sql.includes('heads &&'));
  t.equal(partialHeadFactor({ boost }), null);
  t.equal(headHit({ boost: { ...boost, heads: [] } }), null);
});

t.test("name length: the store's average, and the factor on the text rank", async (t) => {
  t.equal(new Vocabulary(new Map(), 4, new Map(), 30).averageNameWords, 7.5);
  t.equal(new Vocabulary(new Map(), 0, new Map(), 0).averageNameWords, undefined, 'no counts: no length factor');
  t.equal(nameLengthFactor({ boost: { inStockFirst: false, popularity: 0, margin: 0 } }), null);
  const f = nameLengthFactor({ boost: { inStockFirst: false, popularity: 0, margin: 0, nameWords: 8 } })!;
  t.same(f.bindings, [8]);
  t.match(f.sql, /nw \/ \?::float8/, 'the name length column against the average');
});

t.test("a query's qualifier: the words after its preposition are marked, never the preposition or the product's words", async (t) => {
  const term = (w: string) => ({ alternatives: [[w]] });
  t.equal(qualifierAt(['bike', 'for', 'children']), 1);
  t.equal(qualifierAt(['for', 'children']), -1, 'a preposition first qualifies nothing');
  const marked = markQualifier(['bike', 'for', 'children'].map(term), ['bike', 'for', 'children']);
  t.same(
    marked.map((x) => !!x.qualifier),
    [false, false, true],
  );
  t.same(
    markQualifier(['blender', 'jar'].map(term), ['blender', 'jar']).map((x) => !!x.qualifier),
    [false, false],
    'no qualifier',
  );
  // "cheap" left out of the match (an intent word the catalog lacks): the terms follow the preposition still.
  t.same(
    markQualifier(['case', 'with', 'stand'].map(term), ['cheap', 'case', 'with', 'stand']).map((x) => !!x.qualifier),
    [false, false, true],
  );
});

t.test("brand words: names that open with the word, against the store's products carrying it", async (t) => {
  const v = new Vocabulary(
    new Map([
      ['crocs', 21],
      ['white', 500],
      ['zeno', 2],
    ]),
    1000,
    new Map(),
    0,
    new Map([
      ['crocs', 16],
      ['white', 36],
      ['zeno', 2],
    ]),
  );
  t.ok(v.isOpener('crocs'), '16 of 21 names open with it');
  t.notOk(v.isOpener('white'), 'opens 36 of 500: a word of many names, no brand');
  t.notOk(v.isOpener('zeno'), 'two names are too few to learn from');
  t.notOk(v.isOpener('unknown'));
  t.notOk(new Vocabulary(new Map([['crocs', 21]]), 1000).isOpener('crocs'), 'no opening counts: no brand words');
  const boost = { inStockFirst: false, popularity: 0, margin: 0, openers: ['crocs', 'startech.com'] };
  t.same(openerHit({ boost })?.bindings, ['^[^[:alnum:]]*(crocs|startech\\.com)([^[:alnum:]]|$)'], 'a whole word opening the name, dots escaped');
  t.equal(openerHit({ boost, matchAny: true }), null, 'matching any word, coverage decides first');
  t.match(partialOpenerFactor({ boost, matchAny: true })?.sql, /name_norm ~ \? THEN 2 ELSE 1/, '... and the brand word breaks its ties');
  t.equal(partialOpenerFactor({ boost }), null);
  t.equal(openerHit({ boost: { ...boost, openers: [] } }), null);
  t.match(orderBy({ boost }, false, false, false, true).sql, /opener_hit THEN 2/);
});

t.test('matching any word, a word only in the description covers a share; a preposition none', async (t) => {
  const term = (w: string) => ({ alternatives: [[w]] });
  t.same(
    markPrepositions(['dresses', 'for', 'women'].map(term)).map((x) => !!x.preposition),
    [false, true, false],
  );
  t.same(coverageSql(null, 'q').match(/\?/g)?.length, 1, 'without a description tsquery: weight and one tsquery bound (the tsquery through the given SQL)');
  const both = coverageSql("'pads'", '(SELECT q)');
  t.match(both, /THEN 1 WHEN/, 'a match above the description earns the whole weight');
  t.match(both, new RegExp(`THEN ${DESCRIPTION_COVERAGE} ELSE 0`), 'a match in the description only earns its share');
  t.ok(DESCRIPTION_COVERAGE > 0 && DESCRIPTION_COVERAGE < 0.5, 'less than half: naming a word in the title counts more');
});

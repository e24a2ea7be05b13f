import t from 'tap';
import { SpellingVariants, isVariantEdit } from '../../shared/search/spelling-variants.js';
import { planQuery } from '../../shared/search/query-plan.js';
import { Vocabulary } from '../../shared/search/vocabulary.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

const learn = (names: string[]) => {
  const s = new SpellingVariants();
  for (const n of names) s.addName(n.toLowerCase().split(' '));
  return s.variants();
};

t.test('which edits can make two writings of one word', async (t) => {
  t.ok(isVariantEdit('duffle', 'duffel'), 'two neighbours swapped');
  t.ok(isVariantEdit('theater', 'theatre'));
  t.ok(isVariantEdit('color', 'colour'), 'a letter added');
  t.ok(isVariantEdit('canceling', 'cancelling'));
  t.ok(isVariantEdit('anodised', 'anodized'), 's/z');
  t.notOk(isVariantEdit('port', 'post'), 'another substitution');
  t.notOk(isVariantEdit('ipad', 'ipod'));
  t.notOk(isVariantEdit('colour', 'calor'), 'two edits apart');
  t.notOk(isVariantEdit('shoe', 'shoes'), 'a plural is another form, not another writing');
  t.notOk(isVariantEdit('rule', 'ruled'));
  t.notOk(isVariantEdit('gloss', 'glossy'));
  t.ok(isVariantEdit('back', 'black'), 'by its letters alone a pair: the company of words tells them apart (below)');
});

t.test('a pair is learned only when the store uses both writings in the same company', async (t) => {
  const names = [
    'Rockland Duffle Bag Black',
    'Code Alpha Giant Duffle Bag',
    'Everest Giant Duffel Bag',
    'Token Rockland Duffel Bag Navy',
    'Rockland Rolling Duffle Bag Pink',
    'Fossil Leather Duffel Bag Black',
    // One letter apart, in different company: never a pair.
    'Black Leather Back Pack',
    'Back Massager Cushion',
    'Black Leather Belt',
  ];
  const v = learn(names);
  t.equal(v.get('duffle'), 'duffel');
  t.equal(v.get('duffel'), 'duffle', 'both ways');
  t.equal(v.get('back'), undefined);
  t.equal(v.get('black'), undefined);
});

t.test('a writing seen in one name only, or sharing a single neighbour, is no variant', async (t) => {
  t.equal(learn(['Canvas Duffle Bag', 'Giant Duffle Bag', 'Cargo Duffel Bag']).get('duffle'), undefined, 'duffel in one name');
  t.equal(learn(['Red Duffle Bag', 'Blue Duffle Bag', 'Green Duffel Case', 'Pink Duffel Case']).get('duffle'), undefined, 'no neighbour in common');
});

t.test("a catalog word matches the store's other writing too, as an alternative after the typed one", async (t) => {
  const vocab = new Vocabulary(
    new Map([
      ['duffle', 28],
      ['duffel', 17],
      ['bag', 300],
    ]),
    1000,
    new Map(),
    0,
    new Map(),
    new Map([
      ['duffle', 'duffel'],
      ['duffel', 'duffle'],
    ]),
  );
  const p = planQuery({
    tokens: ['duffle', 'bag'],
    terms: vocab.terms,
    typoTolerance: true,
    correct: (w) => vocab.typos.correction(w),
    variant: (w) => vocab.variant(w),
  });
  t.same(p.terms, [{ alternatives: [['duffle'], ['duffel']] }, { alternatives: [['bag']] }]);
  t.same(p.variants, [{ from: 'duffle', to: 'duffel' }]);

  // Mistyped, the word is corrected and then planned as if typed right: both writings again.
  const typo = planQuery({
    tokens: ['dufflle', 'bag'],
    terms: vocab.terms,
    typoTolerance: true,
    correct: (w) => vocab.typos.correction(w),
    variant: (w) => vocab.variant(w),
  });
  t.same(typo.corrections, [{ from: 'dufflle', to: 'duffle' }]);
  t.same(typo.terms[0], { alternatives: [['dufflle'], ['duffle'], ['duffel']] }, "the correction's other writing too");
  t.same(typo.variants, [{ from: 'duffle', to: 'duffel' }]);
});

t.test('through the API: the vocabulary learns the pair and a search finds both writings', async (t) => {
  const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
  const { id: tenantId, key } = await h.tenant();
  const p = (id: string, name: string) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
  await loadProducts(h, key, tenantId, [
    p('a1', 'Rockland Duffle Bag Black'),
    p('a2', 'Code Alpha Giant Duffle Bag'),
    p('b1', 'Everest Giant Duffel Bag'),
    p('b2', 'Token Rockland Duffel Bag Navy'),
    ...Array.from({ length: 10 }, (_, i) => p(`f${i}`, `Filler Kettle ${i + 1}`)),
  ]);
  const search = async (q: string) =>
    (await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}&debug=true`, { key })).body as {
      ids: string[];
      debug: { steps: Array<{ step: string; variants?: unknown }> };
    };
  const got = await waitFor(
    async () => {
      const r = await search('duffle');
      return r.ids.length === 4 ? r : null;
    },
    20_000,
    'both writings found once the vocabulary is built',
  );
  t.same([...got.ids].sort(), ['a1', 'a2', 'b1', 'b2']);
  t.same(got.debug.steps.find((s) => s.step === 'plan')?.variants, [{ from: 'duffle', to: 'duffel' }], 'the plan step says so');
  const { variants } = await h.api.deps.repos.vocabulary.terms(tenantId);
  t.equal(variants.get('duffel'), 'duffle', 'kept with the vocabulary');
  t.equal(variants.get('bag'), undefined);
});

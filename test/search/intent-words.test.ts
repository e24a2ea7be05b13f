import t from 'tap';
import { planQuery } from '../../shared/search/query-plan.js';
import { Vocabulary } from '../../shared/search/vocabulary.js';
import { intentOf } from '../../shared/text/intent-words.js';
import { normalizeText } from '../../shared/text/normalize.js';

const vocab = new Vocabulary(
  new Map([
    ['dress', 5],
    ['chap', 2],
    ['فستان', 4],
    ['رخيم', 1],
    ['new', 3],
    ['balance', 3],
    ['best', 1],
  ]),
  10,
);
const plan = (q: string) =>
  planQuery({ tokens: normalizeText(q).split(' '), terms: vocab.terms, typoTolerance: true, correct: (w) => vocab.typos.correction(w) });

t.test('intent words in either language are never corrected; unknown ones are left out of the match', async (t) => {
  t.equal(vocab.typos.correction('cheap'), 'chap', 'the typo index alone would turn cheap into chap');
  const en = plan('cheap dress');
  t.same(en.corrections, []);
  t.same(en.intents, ['cheap']);
  t.same(en.terms, [{ alternatives: [['dress']] }]);
  const ar = plan('فستان رخيص');
  t.equal(vocab.typos.correction(normalizeText('رخيص')), normalizeText('رخيم'), 'nor رخيص into رخيم');
  t.same(ar.corrections, []);
  t.same(ar.intents, [normalizeText('رخيص')]);
  const known = plan('new balance');
  t.same(
    known.terms.map((x) => x.alternatives[0]),
    [['new'], ['balance']],
    'an intent word the catalog knows is matched as typed',
  );
  t.same(known.intents, []);
  t.same(plan('cheap').terms, [{ alternatives: [['cheap']] }], 'alone, it stays (nothing else to search for)');
  t.same(plan('cheap').corrections, [], 'and is still not corrected');
  t.same(plan('dres').corrections, [{ from: 'dres', to: 'dress' }], 'other words are corrected as before');
  for (const w of ['cheap', 'best', 'latest', 'under', 'men', 'أفضل', 'جديد', 'رخيص', 'للرجال', 'تحت'])
    t.ok(intentOf(normalizeText(w)), `${w} is an intent word`);
});

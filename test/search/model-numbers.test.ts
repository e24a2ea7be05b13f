import t from 'tap';
import { withModel } from '../../shared/search/steps/fallback.step.js';
import { tsQuery } from '../../shared/engines/lexical/postgres.sql.js';
import type { QueryTerm } from '../../shared/engines/lexical/port.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';

const word = (w: string, extra: Partial<QueryTerm> = {}): QueryTerm => ({ alternatives: [[w]], ...extra });

t.test('matching any word, a lone number after a word counts only near that word', async (t) => {
  const terms = withModel([word('iphone'), word('6', { exact: true }), word('tempered'), word('glass')]);
  t.same(terms[1].alternatives, [['iphone', '6']], 'the model: the word and its number');
  t.ok(terms[1].near && terms[1].exact);
  t.same(terms[0], word('iphone'), 'the word itself still counts alone');
  t.same(withModel([word('6'), word('wine'), word('glasses')]), [word('6'), word('wine'), word('glasses')], 'a number first names no model');
  const pack = [word('glasses'), word('of', { preposition: true }), word('6')];
  t.same(withModel(pack), pack, 'after a preposition it is a count');
  const measure: QueryTerm = { alternatives: [['32', 'gb'], ['32gb']], phrase: true };
  t.same(withModel([word('iphone'), measure]), [word('iphone'), measure], 'a measure is no model number');
  const both = withModel([{ alternatives: [['ipad'], ['i-pad']] }, word('2')]);
  t.same(
    both[1].alternatives,
    [
      ['ipad', '2'],
      ['i-pad', '2'],
    ],
    "each of the word's writings",
  );
  t.equal(
    tsQuery({ tokens: [], terms: [terms[1]], matchAny: true }, 'AB'),
    "(('iphone':AB <-> '6':AB) | ('iphone':AB <2> '6':AB))",
    'next to it, or one word further ("iPad Air 2")',
  );
});

// Made-up products: drinking glasses sold in sixes in the store's glasses category, screen guards
// of tempered glass for other phones, a mount for the iPhone 6, speakers and Bluetooth keyboards.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const cat = (id: string, ...levels: string[]) => [{ id, path: levels.map((en) => ({ en })) }];
const p = (id: string, name: string, category: ReturnType<typeof cat>) => ({ id, name: { en: name }, price: 10, currency: 'USD', categories: category });
const glasses = cat('glasses', 'Kitchen', 'Glasses & Tumblers');
const guards = cat('guards', 'Mobiles', 'Screen Guards');
const speakers = cat('speakers', 'Audio', 'Speakers');
const keyboards = cat('keyboards', 'Computers', 'Keyboards');
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  ...['Ocean Rock', 'Pasabahce Deco', 'Luigi Tall', 'Borgonovo Tumbler'].map((n, i) => p(`g${i}`, `${n} Glass Set of 6`, glasses)),
  p('s1', 'Vmax Tempered Glass for Honor 6', guards),
  p('s2', 'Trink Tempered Glass for Apple iPhone 5s', guards),
  p('m1', 'Amzer Handlebar Mount for iPhone 6', cat('mounts', 'Mobiles', 'Mounts')),
  p('a1', 'Apple Lightning Cable', cat('cables', 'Mobiles', 'Cables')),
  ...['Roller Portable', 'Boom Party', 'Tiny Desk'].map((n, i) => p(`sp${i}`, `${n} Speaker`, speakers)),
  p('k1', 'Logi Bluetooth Keyboard', keyboards),
  p('k2', 'Zeb Bluetooth Keyboard Slim', keyboards),
]);
const ids = searchIds(h, key);
const tumblers = (got: string[]) => got.filter((id) => id.startsWith('g')).map((id) => got.indexOf(id));

t.test('"iphone 6 tempered glass": the screen guards and the iPhone 6 mount before tumblers sold by six', async (t) => {
  const got = await ids('iphone 6 tempered glass');
  const phone = ['s1', 's2', 'm1'].map((id) => got.indexOf(id));
  t.ok(
    phone.every((i) => i >= 0),
    `all three found: ${got}`,
  );
  t.ok(Math.max(...phone) < Math.min(...tumblers(got)), `no tumbler above them: ${got}`);
  t.equal(got[0], 's2', 'iPhone, tempered and glass: the most of the query');
});

t.test("matching some words, the query's category counts as much as the product covers the query", async (t) => {
  const got = await ids('apple tempered glass');
  t.same(got.slice(0, 2).sort(), ['s1', 's2'], `tempered glass first, not glasses for covering "glass" in the glasses category: ${got}`);
  const speaker = await ids('bluetooth speaker');
  t.ok(speaker[0].startsWith('sp'), `a speaker of the speakers' category above a Bluetooth keyboard: ${speaker}`);
});

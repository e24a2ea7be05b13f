import t from 'tap';
import { beyondName, openerOnce } from '../../shared/text/name-opener.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// A name's words count once in its text vectors: a listing that repeats its first word, the maker
// ("Crocs Black Crocs Work Clog"), is no more about the maker than one naming it once, and a brand or
// model field that repeats the name adds only the words the name lacks. Made-up products.

t.test('the first word is left out of the indexed text after its first mention', async (t) => {
  t.same(openerOnce('crocs black crocs work clog', 'croc black croc work clog'), { name: 'crocs black work clog', stem: 'croc black work clog' });
  t.same(openerOnce('wii - mario kart (wii)', 'wii mario kart wii'), { name: 'wii - mario kart ( )', stem: 'wii mario kart' }, 'a closing mention too');
  t.same(openerOnce('zuma rain boot', 'zuma rain boot'), { name: 'zuma rain boot', stem: 'zuma rain boot' }, 'not repeated: unchanged');
  t.same(
    openerOnce('silver bay sterling silver necklace', 'silver bay sterl silver necklac'),
    { name: 'silver bay sterling necklace', stem: 'silver bay sterl necklac' },
    'only the first word; other repeated words keep their count',
  );
  t.same(openerOnce('hp procurve switch hp', 'hp procurv switch hp'), { name: 'hp procurve switch', stem: 'hp procurv switch' });
  t.same(openerOnce('x5 charger x5', 'charger'), { name: 'x5 charger', stem: 'charger' }, 'a code opener: the stemmed text (no codes) unchanged');
  t.same(openerOnce('a tote a day', 'a tote a day'), { name: 'a tote a day', stem: 'a tote a day' }, 'a one-letter opener is no maker');
  t.same(openerOnce('هاتف ذكي هاتف', 'هاتف ذكي هاتف'), { name: 'هاتف ذكي هاتف', stem: 'هاتف ذكي هاتف' }, 'Arabic opens with the type: unchanged');
});

t.test("a listing repeating the maker's name does not outrank the maker's other products for it", async (t) => {
  const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
  const { id: tenantId, key } = await h.tenant();
  const p = (id: string, name: string) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
  await loadProducts(h, key, tenantId, [
    // Same words; the listing repeats "zuma". Its id sorts first, so a tie alone would put it first.
    p('a-repeat', 'Zuma Black Zuma Rain Boot'),
    p('b-once', 'Zuma Black Rain Boot'),
    ...Array.from({ length: 6 }, (_, i) => p(`f${i}`, `Filler Kettle ${i + 1}`)),
  ]);
  const ids = searchIds(h, key);
  // Counted twice, the repeated word doubled the listing's text rank. Counted once, the two names
  // match alike, and the store's name length (learned with its vocabulary) puts the shorter first.
  const got = await waitFor(
    async () => {
      const r = await ids('zuma');
      return r[0] === 'b-once' ? r : null;
    },
    20_000,
    'the product naming the maker once first, once the store average is known',
  );
  t.same(got, ['b-once', 'a-repeat']);
  t.same(await ids('zuma rain boot'), ['b-once', 'a-repeat'], 'with every word too');
});

t.test('the brand and codes beside a name keep only the words the name lacks', async (t) => {
  t.same(beyondName('canon macrolite adapter 58c camera lens adapter', ['canon', 'macrolite adapter 58c', '4960999581132']), ['4960999581132']);
  t.same(
    beyondName('datatraveler 16gb usb flash drive', ['kingston technology', 'dt-16gb', null]),
    ['kingston technology', 'dt-16gb'],
    'a brand the title leaves out',
  );
  t.same(beyondName('acme caffeine-free cola', ['caffeine', 'acme-cola']), ['acme-cola'], "a compound's parts are the name's words too");
  t.same(beyondName('acme kettle', []), []);
});

t.test('a model field repeating the name does not put that product first', async (t) => {
  const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
  const { id: tenantId, key } = await h.tenant();
  const p = (id: string, name: string, model: string) => ({ id, name: { en: name }, brand: 'Zeno', model, price: 10, currency: 'USD' });
  await loadProducts(h, key, tenantId, [
    // The model written out repeats "kettle"; the other model is a code. Its id sorts first, so a tie alone would put it first.
    p('a-model', 'Zeno Kettle Steel', 'Kettle Steel'),
    p('b-code', 'Zeno Kettle', 'ZK-200'),
    ...Array.from({ length: 6 }, (_, i) => p(`f${i}`, `Filler Mug ${i + 1}`, `FM-${i + 1}`)),
  ]);
  const ids = searchIds(h, key);
  // Counted in the name and the model, "kettle" doubled the first product's text rank; counted once,
  // the shorter name comes first once the store's name length is known.
  const got = await waitFor(
    async () => {
      const r = await ids('kettle');
      return r[0] === 'b-code' ? r : null;
    },
    20_000,
    'the shorter name first, its model no longer counting the name twice',
  );
  t.same(got, ['b-code', 'a-model']);
  t.same(await ids('zk-200'), ['b-code'], 'a code the name lacks still matches');
  t.same(await ids('zeno steel'), ['a-model'], 'and a word both have, by the name');
});

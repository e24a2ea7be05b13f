import t from 'tap';
import { openerOnce } from '../../shared/text/name-opener.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

// A name's first word (its maker) counts once in the name's text vector: a listing that repeats
// it ("Crocs Black Crocs Work Clog") is no more about the maker than one naming it once. Made-up products.

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
  const ids = async (q: string) => ((await h.api.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key })).body as { ids: string[] }).ids;
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

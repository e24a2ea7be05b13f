import t from 'tap';
import { buildCategoryIndex, categoryIntent, namedCategories } from '../../shared/search/category-intent.js';
import { normalizeText, tokenize } from '../../shared/text/normalize.js';
import { qualifierAt } from '../../shared/search/vocabulary.js';

/** Query tokens as the search path has them. */
const q = (text: string) => tokenize(normalizeText(text));

const index = buildCategoryIndex([
  { norm: 'soft toys', target: 'toys/soft' },
  { norm: 'remote control toys', target: 'toys/remote' },
  { norm: 'baby & kids gifts', target: 'baby/gifts' },
  { norm: 'baby bedsheets', target: 'baby/bedsheets' },
  { norm: 'bluetooth speakers', target: 'audio/speakers' },
  { norm: 'ألعاب أطفال', target: 'ar/toys' },
]);

t.test('the head word names the category: the last word in English, the first in Arabic', async (t) => {
  t.same(categoryIntent(['bluetooth', 'speaker'], index), ['audio/speakers']);
  t.same(categoryIntent(['baby', 'toys'], index).sort(), ['toys/remote', 'toys/soft']);
  t.same(categoryIntent(q('ألعاب أطفال'), index), ['ar/toys']);
  t.same(namedCategories(['bluetooth', 'speaker'], index), { word: 'speaker', targets: ['audio/speakers'] }, 'and the word that names it');
  t.equal(namedCategories(['lamp'], index), null);
});

t.test("what follows a qualifier's preposition qualifies the product named before it", async (t) => {
  t.same(categoryIntent(['toys', 'for', 'baby'], index).sort(), ['toys/remote', 'toys/soft'], 'toys, not the baby categories');
  t.same(categoryIntent(['speaker', 'with', 'gifts'], index), ['audio/speakers']);
  t.same(categoryIntent(q('ألعاب مع أطفال'), index), ['ar/toys']);
  t.same(categoryIntent(['for', 'baby'], index), ['baby/gifts'], 'a leading preposition is no qualifier');
  t.same(categoryIntent(['lamp', 'for', 'baby'], index), [], "the product named is no category of the store: none, not the qualifier's");
});

t.test('of the levels naming the word, the deepest: a top level listing several types holds the others too', async (t) => {
  const levels = buildCategoryIndex([
    { norm: 'bags, wallets & belts', target: 'lvl:bags, wallets & belts' },
    { norm: 'wallets & clutches', target: 'lvl:bags, wallets & belts>wallets & clutches' },
    { norm: 'wallets', target: 'lvl:bags, wallets & belts>wallets & clutches>wallets' },
    { norm: 'justanned wallets', target: 'bags/wallets/justanned' },
    { norm: 'belts', target: 'lvl:bags, wallets & belts>belts' },
    { norm: 'shoes', target: 'lvl:shoes' },
    { norm: 'sneakers', target: 'lvl:shoes>sneakers' },
  ]);
  t.same(categoryIntent(['mens', 'wallet'], levels).sort(), ['bags/wallets/justanned', 'lvl:bags, wallets & belts>wallets & clutches>wallets']);
  t.same(categoryIntent(['belt'], levels), ['lvl:bags, wallets & belts>belts']);
  t.same(categoryIntent(['shoes'], levels), ['lvl:shoes'], 'no level below names shoes: the top level stays');
});

t.test('"of" is no qualifier: what follows it is the product ("pack of 3 socks")', async (t) => {
  const idx = buildCategoryIndex([
    { norm: 'socks', target: 'lvl:clothing>socks' },
    { norm: 'hot & cold packs', target: 'lvl:health>packs' },
  ]);
  t.same(categoryIntent(q('pack of 3 socks'), idx), ['lvl:clothing>socks']);
  t.same(categoryIntent(q('socks for men'), idx), ['lvl:clothing>socks']);
  t.same(qualifierAt(q('pack of 3 socks')), -1);
  t.same(qualifierAt(q('bike for children')), 1);
});

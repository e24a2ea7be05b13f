import t from 'tap';
import { CategoryProfileBuilder, narrowIntent, typicalWords, type LoadedProfile } from '../../shared/search/category-profile.js';

const load = (b: CategoryProfileBuilder) =>
  new Map<string, LoadedProfile>(b.build().map((p) => [p.category, { typical: p.typical, common: new Set(p.common) }]));

function catalog() {
  const b = new CategoryProfileBuilder();
  for (let i = 0; i < 9; i++) b.add([`HP EliteBook 84${i} Notebook PC Windows`], ['notebooks', 'lvl:electronics>laptops & notebooks']);
  b.add(['Origin Laptop keyboard UK'], ['notebooks', 'lvl:electronics>laptops & notebooks']);
  for (let i = 0; i < 10; i++) b.add([`Philips ${i}0PFL LCD TV`], ['tvs']);
  for (let i = 0; i < 10; i++) b.add([`HP Windows desktop PC ${i}`], ['desktops']);
  return b;
}

t.test('typical words: frequent in the category, rare elsewhere; common words and their stems', async (t) => {
  const profiles = catalog().build();
  const notebooks = profiles.find((p) => p.category === 'notebooks')!;
  t.same(notebooks.typical.map((w) => w.word).slice(0, 2), ['elitebook', 'notebook'], 'most telling first');
  t.equal(notebooks.typical.find((w) => w.word === 'notebook')!.weight, 0.9, "weight: share of the category's products");
  t.notOk(
    notebooks.typical.some((w) => w.word === 'hp' || w.word === 'pc'),
    'words as frequent elsewhere are not typical',
  );
  t.ok(notebooks.common.includes('notebook'));
  t.notOk(notebooks.common.includes('laptop'), '1 of 10 products says laptop: not how they are called');
  t.notOk(
    notebooks.typical.some((w) => /^\d/.test(w.word)),
    'codes and numbers are not words of a type',
  );
});

t.test('typicalWords: only for a one-word query naming the category by a word its products rarely carry', async (t) => {
  const profiles = load(catalog());
  t.same(
    typicalWords(['laptop'], ['notebooks'], profiles)
      .map((w) => w.word)
      .slice(0, 2),
    ['elitebook', 'notebook'],
  );
  t.same(typicalWords(['notebooks'], ['notebooks'], profiles), [], 'the products are called notebooks (stem): text ranks well');
  t.same(typicalWords(['tv'], ['tvs'], profiles), [], 'TVs are called TV');
  t.same(typicalWords(['gaming', 'laptop'], ['notebooks'], profiles), [], 'more words: the words decide');
  t.same(typicalWords(['laptop'], [], profiles), [], 'no category named');
  t.same(typicalWords(['laptop'], ['unknown'], profiles), []);
});

t.test('narrowIntent: of the categories the head word names, those whose products carry the other words', async (t) => {
  const b = new CategoryProfileBuilder();
  for (let i = 0; i < 5; i++) b.add([`HP External DVD drive ${i}`], ['optical']);
  for (let i = 0; i < 5; i++) b.add([`Seagate SATA hard drive ${i}`], ['hdd']);
  for (let i = 0; i < 5; i++) b.add([`Kingston USB flash drive ${i}`], ['flash']);
  const profiles = load(b);
  const all = ['optical', 'hdd', 'flash'];
  t.same(narrowIntent(['external', 'cd', 'drive'], all, profiles), ['optical']);
  t.same(narrowIntent(['usb', 'flash', 'drive'], all, profiles), ['flash']);
  t.same(narrowIntent(['fast', 'drive'], all, profiles), all, 'no other word tells them apart: all of them');
  t.same(narrowIntent(['drive'], all, profiles), all, 'one word');
  t.same(narrowIntent(['external', 'drive'], ['optical'], profiles), ['optical'], 'one category');
});

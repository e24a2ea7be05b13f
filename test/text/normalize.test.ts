import t from 'tap';
import { normalizeText, tokenize, splitCompound, expandCompounds, isCodeLike, scriptOf, isArabic } from '../../shared/text/normalize.js';

// [input, expected] pairs; each rule gets real product/query text.
type Equal = { equal: (found: string, wanted: string, message: string) => boolean };
function checkAll(t: Equal, cases: [string, string][]) {
  for (const [input, expected] of cases) t.equal(normalizeText(input), expected, JSON.stringify(input));
}

t.test('alef forms fold to bare alef', async (t) => {
  checkAll(t, [
    ['أحمر', 'احمر'],
    ['إحمر', 'احمر'],
    ['آحمر', 'احمر'],
    ['ٱحمر', 'احمر'],
    ['إكسسوارات أبل', 'اكسسوارات ابل'],
  ]);
});

t.test('tashkeel, superscript alef and tatweel are stripped', async (t) => {
  checkAll(t, [
    ['مُوبَايِل', 'موبايل'],
    ['مكيّف', 'مكيف'],
    ['جديدًا', 'جديدا'],
    ['هٰذا', 'هذا'],
    ['ســامسونج', 'سامسونج'],
    ['هـــاتـــف', 'هاتف'],
  ]);
});

t.test('yeh, hamza carriers and Persian look-alikes', async (t) => {
  checkAll(t, [
    ['مستشفى', 'مستشفي'],
    ['مسؤول', 'مسوول'],
    ['شاطئ', 'شاطي'],
    ['کیبورد', 'كيبورد'], // Persian keheh + Farsi yeh
  ]);
});

t.test('teh marbuta folds to heh unless disabled', async (t) => {
  t.equal(normalizeText('شاشة'), 'شاشه');
  t.equal(normalizeText('شاشة', { foldTehMarbuta: true }), 'شاشه');
  t.equal(normalizeText('شاشة', { foldTehMarbuta: false }), 'شاشة');
  // Other folds still apply with the option off.
  t.equal(normalizeText('سمّاعة أذن', { foldTehMarbuta: false }), 'سماعة اذن');
  // The option must not leak into later default calls.
  t.equal(normalizeText('ساعة'), 'ساعه');
});

t.test('Arabic-Indic and Persian digits become ASCII', async (t) => {
  checkAll(t, [
    ['١٢٣', '123'],
    ['۱۲۳', '123'],
    ['٠١٢٣٤٥٦٧٨٩', '0123456789'],
    ['۰۴۵۶۹', '04569'],
    ['ايفون ١٥ برو', 'ايفون 15 برو'],
  ]);
});

t.test('Arabic punctuation maps to Latin equivalents or separators', async (t) => {
  checkAll(t, [
    ['٣٫٥ لتر', '3.5 لتر'],
    ['١٬٢٥٠ ريال', '1250 ريال'],
    ['1٬000', '1000'],
    ['احمر ٬ ازرق', 'احمر ازرق'], // not between digits: a separator, never glue
    ['احمر،ازرق؛ اخضر', 'احمر ازرق اخضر'],
    ['هل يوجد؟', 'هل يوجد?'],
    ['خصم ٥٠٪', 'خصم 50%'],
  ]);
});

t.test('Latin: lower-case and diacritics stripped', async (t) => {
  checkAll(t, [
    ['Café', 'cafe'],
    ['CRÈME BRÛLÉE', 'creme brulee'],
    ['Ñandú Über', 'nandu uber'],
    ['e\u0301te\u0301', 'ete'], // decomposed input
    ['İstanbul', 'istanbul'],
    ['ıstanbul ISPARTA', 'istanbul isparta'], // Turkish dotless i, typed on Turkish keyboards for "i"
    ['Straße STRASSE Fußball', 'strasse strasse fussball'], // German sharp s, which upper-cases to SS
    ['GROẞ', 'gross'],
    ['iPhone 15 Pro Max', 'iphone 15 pro max'],
    ['JBL-T450', 'jbl-t450'],
  ]);
});

t.test('NFKC compatibility forms', async (t) => {
  checkAll(t, [
    ['ＡＢＣ', 'abc'],
    ['ｉＰｈｏｎｅ　１５', 'iphone 15'], // fullwidth letters, digits and ideographic space
    ['ﻻ', 'لا'],
    ['\uFEE3\uFEEE\uFE91\uFE8E\uFEF3\uFEDE', 'موبايل'], // presentation forms
    ['ﬁlter', 'filter'],
  ]);
});

t.test('whitespace collapses and invisible chars are dropped', async (t) => {
  checkAll(t, [
    ['  Hello\t\n  WORLD  ', 'hello world'],
    ['a\u00a0\u00a0b', 'a b'],
    ['سام\u200cسونج', 'سامسونج'],
    ['\u200fiPhone\u200e', 'iphone'],
    ['\ufeffbom', 'bom'],
    ['soft\u00adware', 'software'],
    ['', ''],
    [' \t\n ', ''],
    ['ـــ', ''],
  ]);
});

t.test('spelling variants of one product normalize identically', async (t) => {
  const groups = [
    ['سامسونج جالاكسي', 'سَامْسُونْج جَالَاكْسِي', 'ســامسونج  جالاكسى', '\u200fسامسونج\tجالاكسي '],
    ['شاشة أل جي ٥٥ بوصة', 'شاشه ال جي 55 بوصه', 'شاشـة إل جى ۵۵ بوصة'],
    ['Café Crème', 'CAFE CREME', 'cafe\u0301   cre\u0300me', 'ＣＡＦＥ ＣＲＥＭＥ'],
  ];
  for (const group of groups) {
    const expected = normalizeText(group[0]);
    for (const variant of group) t.equal(normalizeText(variant), expected, JSON.stringify(variant));
  }
});

t.test('normalization is idempotent', async (t) => {
  for (const s of ['أحمر ١٢٣', 'Café ＡＢＣ', 'ســامسونج، ٣٫٥', '  x  y  ', 'شاشة']) {
    const once = normalizeText(s);
    t.equal(normalizeText(once), once, JSON.stringify(s));
  }
});

t.test('tokenize splits on whitespace and punctuation, keeps model codes', async (t) => {
  const tok = (s: string) => tokenize(normalizeText(s));
  t.same(tok('سماعة Bluetooth JBL-T450'), ['سماعه', 'bluetooth', 'jbl-t450']);
  t.same(tok('لون: أسود (جديد)، مقاس XL/XXL'), ['لون', 'اسود', 'جديد', 'مقاس', 'xl', 'xxl']);
  t.same(tok('HP Pavilion dv7-1211ea laptop!'), ['hp', 'pavilion', 'dv7-1211ea', 'laptop']);
  t.same(tok('زيت ١٫٥ لتر'), ['زيت', '1.5', 'لتر']);
  t.same(tok('wi-fi. e.g. -abc- a--b'), ['wi-fi', 'e.g', 'abc', 'a', 'b']);
  t.same(tok('ايفون15 خصم ٥٠٪'), ['ايفون15', 'خصم', '50']);
  t.same(tok('  ؟!  '), []);
  t.same(tokenize(''), []);
});

t.test('splitCompound returns the parts of a-b / a.b tokens', async (t) => {
  t.same(splitCompound('jbl-t450'), ['jbl', 't450']);
  t.same(splitCompound('dv7-1211ea'), ['dv7', '1211ea']);
  t.same(splitCompound('wi-fi'), ['wi', 'fi']);
  t.same(splitCompound('v2.0-beta'), ['v2', '0', 'beta']);
  t.same(splitCompound('samsung'), ['samsung']);
  t.same(splitCompound('1.5'), ['1.5'], 'a decimal is one quantity');
});

t.test('expandCompounds appends parts without duplicates', async (t) => {
  t.same(expandCompounds(['jbl-t450', 'jbl', '1.5', 'wi-fi']), ['jbl-t450', 'jbl', '1.5', 'wi-fi', 't450', 'wi', 'fi']);
  t.same(expandCompounds([]), []);
});

t.test('scriptOf and isArabic', async (t) => {
  t.equal(scriptOf('سماعة بلوتوث'), 'arabic');
  t.equal(scriptOf('ايفون 15'), 'arabic');
  t.equal(scriptOf('ﻻ'), 'arabic');
  t.equal(scriptOf('JBL T450'), 'latin');
  t.equal(scriptOf('Café'), 'latin');
  t.equal(scriptOf('سماعة JBL'), 'mixed');
  t.equal(scriptOf('123 - ٤٥٦ !'), 'none');
  t.equal(scriptOf(''), 'none');
  t.equal(isArabic('iphone ايفون'), true);
  t.equal(isArabic('سماعة'), true);
  t.equal(isArabic('iphone 15'), false);
  t.equal(isArabic('١٢٣'), false, 'digits are not letters');
});

t.test('isCodeLike', async (t) => {
  const codes = ['dv7', 'dv7-1211ea', 'jbl-t450', '12345', '6281100000000', '1.5', '4k', '5g', 'ps5', 'ايفون15', '١٢٣٤', '12_34_56'];
  for (const c of codes) t.equal(isCodeLike(c), true, JSON.stringify(c));
  const words = ['samsung', 'سماعه', 'wi-fi', 'xl', '', '1_2'];
  for (const w of words) t.equal(isCodeLike(w), false, JSON.stringify(w));
});

import t from 'tap';
import { normalizeText, tokenize } from '../../shared/text/normalize.js';
import { stem, stemArabic, stemEnglish, stemTokens } from '../../shared/text/stem.js';

// The stemmers take normalized tokens, so tests feed raw Arabic through normalizeText first.
const ar = (word: string) => stemArabic(normalizeText(word));
const pipeline = (text: string) => stemTokens(tokenize(normalizeText(text)));

t.test('Arabic: articles are stripped', async (t) => {
  t.equal(ar('الهواتف'), 'هواتف');
  t.equal(ar('للاطفال'), 'اطفال');
  t.equal(ar('والشاشات'), 'شاش');
  t.equal(ar('بالسيارة'), 'سيار');
  t.equal(ar('كالذهب'), 'ذهب');
  t.equal(ar('فالكمبيوتر'), 'كمبيوتر');
  t.equal(ar('وبالسيارة'), 'سيار');
});

t.test('Arabic: plural, feminine and pronoun suffixes are stripped', async (t) => {
  t.equal(ar('شاشات'), 'شاش');
  t.equal(ar('شاشة'), 'شاش');
  t.equal(ar('مهندسين'), 'مهندس');
  t.equal(ar('مهندسون'), 'مهندس');
  t.equal(ar('سياراتهم'), 'سيار');
  t.equal(ar('كتابها'), 'كتاب');
  t.equal(ar('بطاريات'), 'بطار');
  t.equal(ar('بطارية'), 'بطار');
  // Unfolded teh marbuta (foldTehMarbuta=false) is handled too.
  t.equal(stemArabic(normalizeText('شاشة', { foldTehMarbuta: false })), 'شاش');
});

t.test('Arabic: singular, plural and prefixed forms share a stem', async (t) => {
  const groups = [
    ['والشاشات', 'شاشه', 'الشاشة', 'شاشات', 'بالشاشات'],
    ['بالسيارة', 'سيارات', 'سيارة', 'السيارات', 'وسيارات', 'سياراتهم'],
    ['بطارية', 'بطاريات', 'البطارية', 'والبطاريات'],
    ['لمبة', 'لمبات', 'اللمبات'],
    ['كابل', 'كابلات', 'الكابلات'],
  ];
  for (const group of groups) {
    const expected = ar(group[0]);
    for (const word of group) t.equal(ar(word), expected, `${word} ~ ${group[0]}`);
  }
});

t.test('Arabic: short words and short stems are left alone', async (t) => {
  for (const word of ['قلم', 'بيت', 'الم', 'ولد', 'ال', 'و', '']) t.equal(stemArabic(word), word, word);
  t.equal(ar('الام'), 'الام', 'article would leave 2 letters');
  t.equal(ar('بنات'), 'بنات', 'suffix would leave 2 letters');
  t.equal(ar('هاتف'), 'هاتف');
  const words = ['والشاشات', 'بالسيارة', 'كتبه', 'وقته', 'الوان', 'مياه', 'للبنات', 'وانا', 'فيها'];
  for (const word of words) t.ok(ar(word).length >= 3, `${word} -> ${ar(word)} keeps >= 3 letters`);
});

t.test('Arabic: one-letter clitics', async (t) => {
  t.equal(ar('وسيارات'), 'سيار', 'و (and) is stripped');
  t.equal(ar('وقته'), 'وقت', 'a root و survives once the suffix is gone');
  t.equal(ar('بكاميرات'), 'كامير', 'ب with a long remainder is stripped');
  // ب ك ل ف need a 4-letter remainder: these are the words themselves, not clitic + word.
  t.equal(ar('كابل'), 'كابل', 'not ابل (Apple)');
  t.equal(ar('فلتر'), 'فلتر', 'not لتر (liter)');
  t.equal(ar('كريم'), 'كريم');
});

t.test('English: plural stemming', async (t) => {
  const cases: [string, string][] = [
    ['laptops', 'laptop'],
    ['batteries', 'battery'],
    ['cables', 'cable'],
    ['glasses', 'glass'],
    ['boxes', 'box'],
    ['watches', 'watch'],
    ['brushes', 'brush'],
    ['cases', 'case'],
    ['shoes', 'shoe'],
    ['ties', 'tie'],
    ['axes', 'axe'],
    ['hoodies', 'hoody'],
    ['hoodie', 'hoody'],
    ['mice', 'mouse'],
    ['knives', 'knife'],
    ['shelves', 'shelf'],
    ['children', 'child'],
  ];
  for (const [word, expected] of cases) t.equal(stemEnglish(word), expected, word);
});

t.test('English: words that must not change', async (t) => {
  const same = ['glass', 'dress', 'dv7', 'ps5', 'bus', 'status', 'chassis', 'series', 'news', 'lens', 'gps', 'ios', 'its', 'usb-cables', 'samsung', ''];
  for (const word of same) t.equal(stemEnglish(word), word, JSON.stringify(word));
});

t.test('stem dispatches by script and skips code-like tokens', async (t) => {
  t.equal(stem('الشاشات'), 'شاش');
  t.equal(stem('laptops'), 'laptop');
  t.equal(stem('12345'), '12345');
  t.equal(stem('ايفونات15'), 'ايفونات15', 'code-like Arabic token');
  t.equal(stem('dv7-1211ea'), 'dv7-1211ea');
  t.equal(stem('χρώματα'), 'χρώματα', 'other scripts pass through');
});

t.test('stemTokens over normalized, tokenized text', async (t) => {
  t.same(pipeline('والشاشات Samsung Laptops dv7-1211ea'), ['شاش', 'samsung', 'laptop', 'dv7-1211ea']);
  t.same(pipeline('سماعات Bluetooth JBL-T450'), ['سماع', 'bluetooth', 'jbl-t450']);
  t.same(stemTokens([]), []);
  // A query and a product title written differently meet on the same stems.
  t.same(pipeline('شاشة سامسونج'), pipeline('الشاشات سامسونج'));
  t.same(pipeline('بطاريات Laptops'), pipeline('البطارية laptop'));
});

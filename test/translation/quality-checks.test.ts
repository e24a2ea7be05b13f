import t from 'tap';
import { checkTranslation, foldDigits, qualityScore, type CheckInput } from '../../shared/translation/quality-checks.js';

const base: CheckInput = {
  source: 'Casio men watch 100 m water resistant',
  translated: 'ساعة Casio رجالية مقاومة للماء 100 m',
  targetLocale: 'ar',
  codes: ['Casio', 'MTP-1302'],
  glossary: [],
  restored: { missing: [], repeated: [], unknown: [] },
};
const results = (notes: ReturnType<typeof checkTranslation>) => Object.fromEntries(Object.entries(notes).map(([k, v]) => [k, v.result]));

t.test('a good translation passes every check with score 1', async (t) => {
  const notes = checkTranslation(base);
  t.same(Object.keys(notes).sort(), [
    'brand_kept',
    'glossary_obeyed',
    'html_balanced',
    'length_ratio',
    'not_identical',
    'numbers_kept',
    'placeholders_restored',
    'target_script',
  ]);
  t.ok(
    Object.values(notes).every((n) => n.result === 'pass'),
    JSON.stringify(notes),
  );
  t.equal(qualityScore(notes), 1);
});

t.test('numbers are compared after folding Arabic-Indic digits', async (t) => {
  t.equal(foldDigits('١٢٣٫٥ و۴'), '123.5 و4');
  t.equal(checkTranslation({ ...base, translated: 'ساعة Casio رجالية مقاومة للماء ١٠٠ م' }).numbers_kept.result, 'pass');
  const lost = checkTranslation({ ...base, translated: 'ساعة Casio رجالية مقاومة للماء 10 م' });
  t.same(lost.numbers_kept, { result: 'error', detail: 'missing: 100' });
  t.equal(checkTranslation({ ...base, translated: `${base.translated} 5` }).numbers_kept.result, 'warn', 'an added number is a warning');
});

t.test('each check catches its own failure', async (t) => {
  t.equal(checkTranslation({ ...base, translated: 'ساعة كاسيو رجالية مقاومة للماء 100 m' }).brand_kept.result, 'error', 'brand lost');
  t.equal(checkTranslation({ ...base, restored: { missing: [1], repeated: [], unknown: [] } }).placeholders_restored.result, 'error', 'placeholder lost');
  t.equal(checkTranslation({ ...base, restored: { missing: [], repeated: [0], unknown: [] } }).placeholders_restored.result, 'warn', 'placeholder repeated');
  t.equal(checkTranslation({ ...base, translated: `${base.translated} {{P3}}` }).placeholders_restored.result, 'error', 'placeholder left in the text');
  t.equal(checkTranslation({ ...base, translated: 'Casio men watch 100 m water resistant' }).not_identical.result, 'error', 'untranslated');
  t.equal(checkTranslation({ ...base, translated: 'Casio men watch 100 m water resistant' }).target_script.result, 'error', 'no Arabic letters');
  t.equal(checkTranslation({ ...base, translated: 'ساعة' }).length_ratio.result, 'error', 'far too short');
  t.equal(checkTranslation({ ...base, translated: 'ساعة Casio 100' }).length_ratio.result, 'warn', 'short');
  t.equal(
    checkTranslation({ ...base, source: '<p>Casio <b>100 m</b></p>', translated: '<p>ساعة Casio <b>100 m</p>' }).html_balanced.result,
    'error',
    'unclosed tag',
  );
  const glossary = [{ source_term: 'water resistant', target_term: 'مقاومة للماء', do_not_translate: false, case_sensitive: false }];
  t.equal(checkTranslation({ ...base, glossary }).glossary_obeyed.result, 'pass');
  t.equal(checkTranslation({ ...base, glossary, translated: 'ساعة Casio رجالية ضد الماء 100 m' }).glossary_obeyed.result, 'error', 'forced target missing');
});

t.test('a text that is all brand and model needs no translation', async (t) => {
  const notes = checkTranslation({ ...base, source: 'Casio MTP-1302', translated: 'Casio MTP-1302' });
  t.same(results(notes), {
    numbers_kept: 'pass',
    brand_kept: 'pass',
    glossary_obeyed: 'pass',
    placeholders_restored: 'pass',
    target_script: 'pass',
    length_ratio: 'pass',
    not_identical: 'pass',
    html_balanced: 'pass',
  });
});

t.test('score: 0.3 off per error, 0.1 per warning, never below 0', async (t) => {
  t.equal(qualityScore({ a: { result: 'error' }, b: { result: 'warn' }, c: { result: 'pass' } }), 0.6);
  t.equal(qualityScore({ a: { result: 'error' }, b: { result: 'error' }, c: { result: 'error' }, d: { result: 'error' } }), 0);
});

import t from 'tap';
import { protect, restore } from '../../shared/translation/protect.js';
import { findTerms, type GlossaryRule } from '../../shared/translation/glossary-match.js';

const term = (source_term: string, extra: Partial<GlossaryRule> = {}): GlossaryRule => ({
  source_term,
  target_term: null,
  do_not_translate: true,
  case_sensitive: false,
  ...extra,
});

t.test('glossary terms match whole tokens, case-insensitively unless case_sensitive', async (t) => {
  const rules = [term('Galaxy'), term('Pro', { case_sensitive: true })];
  t.same(
    findTerms('galaxy S24 and GALAXY', rules).map((s) => s.start),
    [0, 15],
    'any case',
  );
  t.same(findTerms('Galaxys and MegaGalaxy', rules), [], 'never inside a word');
  t.same(
    findTerms('pro PRO Pro', rules).map((s) => s.start),
    [8],
    'case_sensitive matches only the exact case',
  );
  t.same(
    findTerms('Galaxy-Tab', rules).map((s) => s.start),
    [0],
    'punctuation is a boundary',
  );
});

t.test('longer terms win over the shorter ones inside them', async (t) => {
  const spans = findTerms('Apple Watch Ultra', [term('Apple'), term('Apple Watch')]);
  t.same(
    spans.map((s) => s.rule.source_term),
    ['Apple Watch'],
  );
});

t.test('protect masks tags, links, glossary terms, product codes and numbers with units; restore puts them back', async (t) => {
  const text = '<p>Samsung Galaxy S24 Ultra 256 GB, 6.8" screen, see https://shop.example/s24 for the Ultra Pack</p>';
  const p = protect(text, {
    glossary: [term('Ultra Pack', { do_not_translate: false, target_term: 'الحزمة الفائقة' })],
    codes: ['Samsung', 'SM-S928B', null],
  });
  t.same(
    p.tokens.map((x) => [x.kind, x.original]),
    [
      ['html', '<p>'],
      ['code', 'Samsung'],
      ['number', '256 GB'],
      ['number', '6.8"'],
      ['url', 'https://shop.example/s24'],
      ['glossary', 'Ultra Pack'],
      ['html', '</p>'],
    ],
  );
  t.equal(p.masked, '{{P0}}{{P1}} Galaxy S24 Ultra {{P2}}, {{P3}} screen, see {{P4}} for the {{P5}}{{P6}}');
  const r = restore('{{P0}}{{P1}} جالكسي S24 {{P2}}، شاشة {{P3}}، انظر {{P4}} {{P5}}{{P6}}', p.tokens);
  t.equal(r.text, '<p>Samsung جالكسي S24 256 GB، شاشة 6.8"، انظر https://shop.example/s24 الحزمة الفائقة</p>', 'forced glossary target restored');
  t.same([r.missing, r.repeated, r.unknown], [[], [], []]);
});

t.test('restore reports lost, repeated and invented placeholders', async (t) => {
  const p = protect('Casio 100 m water resistant', { glossary: [], codes: ['Casio'] });
  t.equal(p.masked, '{{P0}} {{P1}} water resistant');
  const r = restore('{{ P0 }} {{P0}} {{P7}} مقاوم للماء', p.tokens);
  t.same(r.missing, [1]);
  t.same(r.repeated, [0]);
  t.same(r.unknown, [7]);
  t.equal(r.text, 'Casio Casio {{P7}} مقاوم للماء', 'tolerates spaces inside a placeholder');
});

t.test('do-not-translate terms come back verbatim as written in the source', async (t) => {
  const p = protect('the iphone case', { glossary: [term('iPhone')], codes: [] });
  t.equal(restore('غطاء {{P0}}', p.tokens).text, 'غطاء iphone');
});

import t from 'tap';
import { highlight, highlighter } from '../../shared/search/highlight.js';

t.test('marks the words of the query by form, stem and prefix of the last word', async (t) => {
  t.equal(highlight('Lenovo ThinkPad Laptop, 14"', ['laptops'], null), 'Lenovo ThinkPad <em>Laptop</em>, 14&quot;');
  t.equal(highlight('USB-C Cable & Charger', ['cable', 'char'], 'char'), 'USB-C <em>Cable</em> &amp; <em>Charger</em>');
  t.equal(highlight('Café crème', ['cafe'], null), '<em>Café</em> crème');
  t.equal(highlight('شاشة سامسونج الكبيرة', ['شاشه'], null), '<em>شاشة</em> سامسونج الكبيرة');
  t.equal(highlight('a b', ['a'], 'b'), '<em>a</em> b', 'a prefix of one letter marks nothing');
});

t.test('escapes the text around marked words; null when no word matches', async (t) => {
  t.equal(highlight('<b>cable</b> "x" & y', ['cable'], null), '&lt;b&gt;<em>cable</em>&lt;/b&gt; &quot;x&quot; &amp; y');
  t.equal(highlight('<script>alert(1)</script> cable', ['cable'], null), '&lt;script&gt;alert(1)&lt;/script&gt; <em>cable</em>');
  t.equal(highlight('no match here <b>', ['cable'], null), null);
  t.equal(highlight('', ['cable'], null), null);
  t.equal(highlight('cable', [], null), null);
});

t.test('tags a text holds itself are escaped: only the marks are markup', async (t) => {
  t.equal(highlight('a <em>usb</em> & "cable"', ['cable'], null), 'a &lt;em&gt;usb&lt;/em&gt; &amp; &quot;<em>cable</em>&quot;');
  t.equal(highlight('x<em>y</em> <b>', ['z'], null), null);
});

t.test('one highlighter serves every text of a search', async (t) => {
  const mark = highlighter(['lamp'], 'lam');
  t.equal(mark('Desk Lamp'), 'Desk <em>Lamp</em>');
  t.equal(mark('Lamps & shades'), '<em>Lamps</em> &amp; shades');
  t.equal(mark('Floor light'), null);
  t.equal(highlighter([], 'lam')('Desk Lamp'), null, 'no query words, no marks');
});

import t from 'tap';
import { canonicalJson, newId } from '../../shared/platform/ids.js';
import { canonicalProduct, toStored, type StoredProduct } from '../../shared/catalog/canonical.js';

t.test('canonicalJson: key order never changes the text, at any depth', async (t) => {
  const a = { b: 1, a: { z: [1, { y: 2, x: 3 }], c: null }, '10': 'ten', '9': 'nine' };
  const b = { '9': 'nine', a: { c: null, z: [1, { x: 3, y: 2 }] }, '10': 'ten', b: 1 };
  t.equal(canonicalJson(a), canonicalJson(b));
  t.equal(canonicalJson(a), '{"9":"nine","10":"ten","a":{"c":null,"z":[1,{"x":3,"y":2}]},"b":1}');
});

t.test('canonicalJson: absent values as JSON has them', async (t) => {
  t.equal(canonicalJson(undefined), 'null');
  t.equal(canonicalJson({ a: undefined, b: [undefined, 1] }), '{"b":[null,1]}');
  t.equal(canonicalJson('x'), '"x"');
});

const contentHash = (p: StoredProduct) => canonicalProduct(p).hash;

t.test('content hash: equal products hash equally, any change shows', async (t) => {
  const p = toStored({
    id: 'p1',
    name: { en: 'Mug', ar: 'كوب' },
    price: 10,
    currency: 'USD',
    in_stock: true,
    visible: true,
    attributes: { color: 'red', size: 'L' },
  });
  const reordered = toStored({
    visible: true,
    attributes: { size: 'L', color: 'red' },
    in_stock: true,
    currency: 'USD',
    price: '10',
    name: { ar: 'كوب', en: 'Mug' },
    id: 'p1',
  });
  t.equal(contentHash(p), contentHash(reordered), 'same product, keys in another order, price as number or string');
  t.not(contentHash(p), contentHash({ ...p, attributes: { color: 'blue', size: 'L' } }));
  t.equal(canonicalProduct(p).json, canonicalJson(p), 'the stored text is the hashed text');
});

t.test('newId: prefixed base36, no repeats across many pool refills', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) seen.add(newId('srch'));
  t.equal(seen.size, 20_000);
  for (const id of [...seen].slice(0, 50)) t.match(id, /^srch_[0-9a-z]{16}$/);
  t.match(newId('k', 24), /^k_[0-9a-z]{24}$/);
});

t.test('a price sent as a number is stored as a decimal string the API takes back', async (t) => {
  const priceOf = (price: number) => toStored({ id: 'p', name: { en: 'x' }, price, currency: 'USD' }).price;
  t.equal(priceOf(19.99), '19.99');
  t.equal(priceOf(0.1 + 0.2), '0.3', 'float noise past 6 decimals is dropped');
  t.equal(priceOf(1e-7), '0', 'below the 6 decimals of the string form: no exponent');
  t.equal(priceOf(0.000001), '0.000001');
  t.equal(priceOf(999999999999), '999999999999');
  t.equal(priceOf(123456.1234567), '123456.123457');
  for (const n of [19.99, 0.1 + 0.2, 1e-7, 0.000001, 999999999999.5, 5e-324]) t.match(priceOf(n), /^\d{1,12}(\.\d{1,6})?$/, `${n}`);
});

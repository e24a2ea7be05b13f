import t from 'tap';
import { setup } from '../helpers/harness.js';
import { MAX_GLOSSARY_TERMS } from '../../shared/translation/index.js';
import { caller } from './helpers.js';

const h = await setup();
t.teardown(() => h.close());
const shop = await h.tenant();
const call = caller(h, shop.key);
const term = (over: Record<string, unknown> = {}) => ({
  source_locale: 'en',
  target_locale: 'ar',
  source_term: 'water resistant',
  target_term: 'مقاوم للماء',
  ...over,
});

t.test('create, read a page, replace and delete a term', async (t) => {
  const created = await call('POST', '/v1/translate/glossary', term({ note: 'watch specs' }));
  t.equal(created.status, 201);
  t.match(created.body, { source_term: 'water resistant', target_term: 'مقاوم للماء', do_not_translate: false, case_sensitive: false, note: 'watch specs' });
  t.match(created.body.id, /^gt_/);
  const dnt = await call('POST', '/v1/translate/glossary', term({ source_term: 'iPhone', target_term: null, do_not_translate: true, case_sensitive: true }));
  t.equal(dnt.status, 201);
  const put = await call('PUT', `/v1/translate/glossary/${created.body.id}`, term({ target_term: 'ضد الماء' }));
  t.match(put.body, { id: created.body.id, target_term: 'ضد الماء', note: null }, 'a full replace: the omitted note is cleared');
  const list = await call('GET', '/v1/translate/glossary?limit=1');
  t.equal(list.body.data.length, 1);
  t.equal(list.body.total, 2);
  const next = await call('GET', `/v1/translate/glossary?limit=1&cursor=${list.body.next_cursor}`);
  t.same([list.body.data[0].id, next.body.data[0].id], [created.body.id, dnt.body.id], 'oldest first across pages');
  t.equal(next.body.next_cursor, null);
  t.same((await call('DELETE', `/v1/translate/glossary/${dnt.body.id}`)).body, { deleted: true, id: dnt.body.id });
  t.equal((await call('DELETE', `/v1/translate/glossary/${dnt.body.id}`)).status, 404);
  t.equal((await call('PUT', '/v1/translate/glossary/gt_missing', term())).status, 404);
});

t.test('duplicates answer 409 glossary_duplicate', async (t) => {
  const res = await call('POST', '/v1/translate/glossary', term());
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'glossary_duplicate');
});

t.test('a term differing only in case is a duplicate unless both are case-sensitive', async (t) => {
  // A case-insensitive term matches every casing, so "Water Resistant" beside "water resistant" would leave two targets for one token.
  const upper = await call('POST', '/v1/translate/glossary', term({ source_term: 'Water Resistant', target_term: 'ضد الماء' }));
  t.equal(upper.status, 409);
  t.equal(upper.body.error?.code, 'glossary_duplicate');
  const strict = await call('POST', '/v1/translate/glossary', term({ source_term: 'WATER RESISTANT', case_sensitive: true }));
  t.equal(strict.status, 409, 'the existing case-insensitive term already matches this casing');
  const apple = await call('POST', '/v1/translate/glossary', term({ source_term: 'Apple', target_term: null, do_not_translate: true, case_sensitive: true }));
  t.equal(apple.status, 201);
  const fruit = await call('POST', '/v1/translate/glossary', term({ source_term: 'apple', target_term: 'تفاح', case_sensitive: true }));
  t.equal(fruit.status, 201, 'two case-sensitive terms may differ in case');
  const loose = await call('POST', '/v1/translate/glossary', term({ source_term: 'APPLE', target_term: 'تفاح' }));
  t.equal(loose.status, 409, 'a case-insensitive term clashes with any casing');
  const put = await call('PUT', `/v1/translate/glossary/${fruit.body.id}`, term({ source_term: 'apple', target_term: 'تفاح' }));
  t.equal(put.status, 409, 'a replace that would clash is refused too');
  t.equal(
    (await call('PUT', `/v1/translate/glossary/${fruit.body.id}`, term({ source_term: 'apple', target_term: 'تفاحة', case_sensitive: true }))).status,
    200,
    'a term never clashes with itself',
  );
  await call('DELETE', `/v1/translate/glossary/${apple.body.id}`);
  await call('DELETE', `/v1/translate/glossary/${fruit.body.id}`);
});

t.test('limits of section 8 and the term rules', async (t) => {
  const field = async (body: Record<string, unknown>) => (await call('POST', '/v1/translate/glossary', body)).body.error?.details?.[0];
  t.match(await field(term({ source_term: 'x'.repeat(301) })), { field: 'source_term', code: 'too_long' });
  t.match(await field(term({ source_term: 'y', target_term: 'x'.repeat(301) })), { field: 'target_term', code: 'too_long' });
  t.match(await field(term({ source_term: 'z', note: 'x'.repeat(1001) })), { field: 'note', code: 'too_long' });
  t.match(await field(term({ source_term: '   ' })), { field: 'source_term', code: 'too_short' });
  t.match(await field(term({ source_locale: 'english' })), { field: 'source_locale' });
  t.match(await field(term({ source_term: 'w', target_term: null })), { field: 'target_term', code: 'required' });
  t.match(await field(term({ source_term: 'v', target_locale: 'en' })), { field: 'target_locale', code: 'invalid_value' });
  t.match(await field({ ...term({ source_term: 'u' }), extra: 1 }), { field: 'extra', code: 'unknown_field' });
  t.equal(
    (await call('POST', '/v1/translate/glossary', term({ source_term: 'x'.repeat(300), target_term: 'y'.repeat(300), note: 'n'.repeat(1000) }))).status,
    201,
    'at the limits',
  );
  t.equal((await call('GET', '/v1/translate/glossary?limit=200')).status, 200);
  t.match((await call('GET', '/v1/translate/glossary?limit=201')).body.error, { details: [{ field: 'limit', code: 'too_large' }] });
  t.match((await call('GET', '/v1/translate/glossary?limit=0')).body.error, { details: [{ field: 'limit', code: 'too_small' }] });
  t.match((await call('GET', `/v1/translate/glossary?cursor=${'c'.repeat(201)}`)).body.error, { details: [{ field: 'cursor', code: 'too_long' }] });
  t.match((await call('GET', '/v1/translate/glossary?cursor=bad')).body.error, { code: 'invalid_cursor' });
});

t.test(`a glossary holds at most ${MAX_GLOSSARY_TERMS} terms`, async (t) => {
  const db = h.api.deps.db;
  const [{ n }] = await db('translation_glossary').where({ tenant_id: shop.id }).count({ n: '*' });
  await db('translation_glossary').insert(
    Array.from({ length: MAX_GLOSSARY_TERMS - Number(n) }, (_, i) => ({
      tenant_id: shop.id,
      id: `gt_fill${i}`,
      source_locale: 'en',
      target_locale: 'fr',
      source_term: `term ${i}`,
      do_not_translate: true,
    })),
  );
  const res = await call('POST', '/v1/translate/glossary', term({ source_term: 'one more' }));
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'glossary_full');
});

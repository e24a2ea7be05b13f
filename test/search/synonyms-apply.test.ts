import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { newId } from '../../shared/platform/ids.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
const p = (id: string, en: string, ar?: string) => ({ id, name: ar ? { en, ar } : { en }, price: 10, currency: 'USD' });
await loadProducts(h, key, tenantId, [
  p('nb1', 'Dell notebook 14 inch'),
  p('lp1', 'Acer laptop 15 inch'),
  p('pc1', 'Portable computer 13'),
  p('tv1', 'Samsung television 55', 'تلفزيون سامسونج'),
  p('ph1', 'Apple iPhone 13 cell phone'),
  p('ph2', 'Nokia mobile phone'),
  p('cs1', 'Leather phone case'),
  p('rk1', 'Running sneakers'),
  p('rk2', 'Trail trainers'),
]);

const db = h.api.deps.db;
async function rule(fields: Record<string, unknown>, tenant: string | null = tenantId) {
  const id = newId('syn');
  await db('synonyms').insert({ id, tenant_id: tenant, set_key: 'default', fingerprint: id, ...fields });
  await h.api.deps.redis.publish(`${h.config.queuePrefix}:synonyms-changed`, tenant ?? '*');
  return id;
}
const search = async (q: string, override?: Record<string, unknown>) => {
  const token = override ? (await h.api.call('POST', '/v1/sessions', { key, body: {} })).body.token : key;
  return (await h.api.call('POST', '/v1/search', { key: token, body: { q, config_override: override ?? null, debug: true } })).body;
};
const ids = (b: { ids: string[] }) => [...b.ids].sort();
const fired = (b: { debug: { steps: Array<{ step: string; fired?: string[] }> } }) => b.debug.steps.find((s) => s.step === 'synonyms')?.fired ?? [];

t.test('equivalent and one_way rules, applied within seconds, shopper words first', async (t) => {
  t.same(ids(await search('laptop')), ['lp1']);
  const eq = await rule({ kind: 'equivalent', terms: ['laptop', 'notebook', 'portable computer'] });
  await eventually(async () => (await search('laptop')).ids.length === 3, 10_000);
  const body = await search('laptop');
  t.equal(body.ids[0], 'lp1', 'the product with the typed word ranks first');
  t.match(body.query.rewritten, /laptop \(notebook \| portable computer\)/);
  t.ok(body.debug.steps.find((s: { step: string; fired?: string[] }) => s.step === 'synonyms' && s.fired?.includes(eq)));
  t.same(ids(await search('portable computer')), ['lp1', 'nb1', 'pc1'], 'multi-word term on the input side');
  await rule({ kind: 'one_way', input: 'tv', outputs: ['television'] });
  await eventually(async () => (await search('tv')).ids.includes('tv1'), 10_000);
  t.same(ids(await search('television')), ['tv1'], 'one_way does not run backwards');
});

t.test('several substitutions in one query still find the product', async (t) => {
  await rule({ kind: 'equivalent', terms: ['cell phone', 'mobile phone'] });
  await rule({ kind: 'one_way', input: 'nokla', outputs: ['nokia'] });
  // Both rules, not only the product: "nokla" alone may reach ph2 as a typo of "nokia" before the rules are read.
  await eventually(async () => fired(await search('nokla cell phone')).length === 2, 10_000);
  const body = await search('nokla cell phone');
  t.equal(body.ids[0], 'ph2', 'both rules applied and the product that needs both ranks first');
  t.equal(fired(body).length, 2);
});

t.test('conditions, sets and global rules', async (t) => {
  const phone = await rule({ kind: 'one_way', input: 'phone', outputs: ['iphone'], conditions: { unless_terms: ['case'] } });
  await eventually(async () => fired(await search('phone')).includes(phone), 10_000);
  t.same(fired(await search('phone case')), [], 'unless_terms blocks the expansion');
  await rule({ kind: 'one_way', input: 'sneakers', outputs: ['trainers'], conditions: { require_terms: ['trail'] } });
  const sport = await rule({ kind: 'equivalent', terms: ['running', 'jogging'], set_key: 'sport' });
  await eventually(async () => ids(await search('trail sneakers')).includes('rk2'), 10_000);
  // The "sport" rule came after the "sneakers" one: the context that applied that one may not hold it yet.
  await eventually(async () => fired(await search('jogging sneakers', { synonym_sets: ['default', 'sport'] })).includes(sport), 10_000);
  t.same(ids(await search('sneakers')), ['rk1'], 'require_terms missing: no expansion');
  t.same(fired(await search('jogging sneakers')), [], 'set "sport" is off by default');
  const on = await search('jogging sneakers', { synonym_sets: ['default', 'sport'] });
  t.same(fired(on), [sport], 'set turned on per query');
  t.same(on.ids, ['rk1']);
  await rule({ kind: 'one_way', input: 'telly', outputs: ['television'] }, null);
  await eventually(async () => ids(await search('telly')).includes('tv1'), 10_000);
  t.same(ids(await search('telly', { global_synonyms: false })), [], 'global rules off');
});

t.test('Arabic variants trigger the same rule; a corrected typo does not trigger a rule', async (t) => {
  await rule({ kind: 'one_way', input: 'شاشة', outputs: ['تلفزيون'] });
  await eventually(async () => ids(await search('شاشه')).includes('tv1'), 10_000);
  t.same(ids(await search('شاشة')), ['tv1']);
  await rule({ kind: 'one_way', input: 'leather', outputs: ['television'] });
  await eventually(async () => ids(await search('leather')).includes('tv1'), 10_000);
  const typo = await search('lether');
  t.notOk(typo.ids.includes('tv1'), 'the typo is corrected to leather but the rule needs the typed word');
  t.same(typo.ids, ['cs1']);
});

t.test('conditions read the normalized query, words the rule parser took as a sort included', async (t) => {
  // "cheapest" is a sort phrase: the rule parser takes it out of the search text, but the shopper typed it.
  const kicks = await rule({ kind: 'one_way', input: 'kicks', outputs: ['trainers'], conditions: { require_terms: ['cheapest'] } });
  const shoes = await rule({ kind: 'one_way', input: 'shoes', outputs: ['sneakers'], conditions: { unless_terms: ['cheapest'] } });
  await eventually(async () => fired(await search('shoes')).includes(shoes), 10_000);
  const required = await search('cheapest kicks');
  t.same(fired(required), [kicks], 'require_terms present in the query: the expansion applies');
  t.ok(required.ids.includes('rk2'), 'and finds what it adds');
  t.same(fired(await search('kicks')), [], 'require_terms missing: no expansion');
  const unless = await search('cheapest shoes');
  t.same(fired(unless), [], 'unless_terms present in the query: no expansion');
  t.same(unless.ids, [], 'so nothing the expansion would add');
});

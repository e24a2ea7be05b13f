import t from 'tap';
import { setup } from '../helpers/harness.js';
import { caller } from './helpers.js';

// A translation policy is kept only for a locale the store translates into: one of its languages
// other than the default one, as a backfill requires (README "Catalog translation", Endpoints).
const h = await setup({ TRANSLATION_PROVIDER: 'none' });
t.teardown(() => h.close());
const shop = await h.tenant();
const call = caller(h, shop.key);
const stored = async () => (await h.api.deps.db('translation_settings').where({ tenant_id: shop.id }).select('target_locale')).map((r) => r.target_locale);

t.test('PUT /v1/translate/settings refuses a locale that is not one of the store other languages', async (t) => {
  t.match(await h.api.deps.repos.tenants.find(shop.id), { locales: ['en', 'ar'], default_locale: 'en' }, 'the store: en (default) and ar');
  for (const target of ['fr', 'en']) {
    const res = await call('PUT', '/v1/translate/settings', { target_locale: target, watch_enabled: true });
    t.equal(res.status, 400, `${target}: 400`);
    t.match(res.body.error, { code: 'validation_failed', details: [{ in: 'body', field: 'target_locale', code: 'invalid_value' }] });
  }
  t.same(await stored(), [], 'nothing was stored');
  const ok = await call('PUT', '/v1/translate/settings', { target_locale: 'ar', watch_enabled: true });
  t.equal(ok.status, 200);
  t.match(ok.body, { target_locale: 'ar', watch_enabled: true });
  t.same(await stored(), ['ar']);
});

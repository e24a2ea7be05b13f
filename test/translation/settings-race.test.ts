import t from 'tap';
import { setup } from '../helpers/harness.js';
import { eventually } from '../helpers/workers.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { caller } from './helpers.js';

// PUT /v1/translate/settings changes the fields given and keeps the rest (README "Catalog
// translation"): two PUTs of different fields at once must both stay.
const h = await setup({ TRANSLATION_PROVIDER: 'none' });
t.teardown(() => h.close());
const shop = await h.tenant();
const call = caller(h, shop.key);
const db = h.api.deps.db;

t.test('two PUTs of different fields at once both take effect', async (t) => {
  // The watch PUT is stopped at its write, after reading the stored policy; the auto-approve PUT runs meanwhile.
  const hold = await holdWrites(db, { name: 'hold_watch_put', table: 'translation_settings', on: 'INSERT', when: `NEW.watch_enabled` });
  t.teardown(() => hold.remove());
  const watch = call('PUT', '/v1/translate/settings', { target_locale: 'ar', watch_enabled: true });
  await eventually(async () => (await lockWaiters(db)) > 0, 10_000);
  const approve = await call('PUT', '/v1/translate/settings', { target_locale: 'ar', auto_approve: true, auto_approve_min_score: 0.8 });
  t.equal(approve.status, 200);
  t.match(approve.body, { watch_enabled: false, auto_approve: true, auto_approve_min_score: 0.8 });
  await hold.release();
  const watched = await watch;
  t.equal(watched.status, 200);
  t.match(watched.body, { watch_enabled: true, auto_approve: true, auto_approve_min_score: 0.8 }, 'the answer shows both changes');
  t.match(
    (await call('GET', '/v1/translate/settings?target_locale=ar')).body,
    { watch_enabled: true, auto_approve: true, auto_approve_min_score: 0.8 },
    'the auto-approve change is kept (it was written over with the values the watch PUT had read)',
  );
});

import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { receiversRepo } from '../../shared/notifications/receivers.repo.js';

// A notification that used up its attempts counts against its receiver only while the receiver is
// enabled: the failures of sends that were under way when it was disabled (by the store, or by the
// streak itself), or an interrupted last attempt found after it, no longer raise the streak it was
// disabled at.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
await db('tenants').insert({ id: 'ten_streak', name: 'streak', locales: ['en'], default_locale: 'en' });
const repo = receiversRepo(db);
const receiver = (enabled: boolean) =>
  repo.create('ten_streak', {
    url: 'https://example.com/hook',
    kinds: ['job.completed'],
    description: '',
    secret: { v: 1, iv: 'x', data: 'x' } as never,
    secretLast4: 'xxxx',
    enabled,
  });

t.test('the streak stops where it disabled the receiver', async (t) => {
  const r = await receiver(true);
  t.notOk(await repo.failedOnce(r.id, 2), 'one failure: still enabled');
  const disabled = await repo.failedOnce(r.id, 2);
  t.match(disabled, { enabled: false, failure_streak: 2, disabled_reason: '2 notifications in a row failed every attempt' }, 'the second disables it');
  t.notOk(await repo.failedOnce(r.id, 2), 'a send that was under way fails after it: nothing to disable');
  t.match(
    await repo.get(r.id),
    { enabled: false, failure_streak: 2, disabled_reason: '2 notifications in a row failed every attempt' },
    'the streak and reason are unchanged',
  );
});

t.test('a receiver the store disabled keeps its streak', async (t) => {
  const r = await receiver(true);
  await repo.failedOnce(r.id, 10);
  await repo.update('ten_streak', r.id, { enabled: false });
  t.notOk(await repo.failedOnce(r.id, 10));
  t.match(await repo.get(r.id), { enabled: false, failure_streak: 1, disabled_reason: 'disabled by the store' });
  await repo.update('ten_streak', r.id, { enabled: true });
  t.match(await repo.get(r.id), { enabled: true, failure_streak: 0 }, 'enabling again clears it');
});

t.test('two sends failing at once at the threshold: the streak stops where it disabled the receiver', async (t) => {
  const pool = createDb(database.url, { min: 0, max: 8 });
  t.teardown(() => pool.destroy());
  const racing = receiversRepo(pool);
  let streaks = 0;
  let disabledBy = 0;
  for (let round = 0; round < 10; round++) {
    const r = await receiver(true);
    await db('webhook_receivers').where({ id: r.id }).update({ failure_streak: 2 });
    const got = await Promise.all(Array.from({ length: 4 }, () => racing.failedOnce(r.id, 3)));
    disabledBy += got.filter(Boolean).length;
    const row = await repo.get(r.id);
    if (row?.failure_streak === 3 && row.disabled_reason === '3 notifications in a row failed every attempt') streaks++;
  }
  t.equal(disabledBy, 10, 'each receiver disabled by exactly one of the failures');
  t.equal(streaks, 10, 'each streak stayed at 3, as its reason says');
});

import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { experimentsService } from '../../shared/experiments/index.js';
import { experimentsRepo } from '../../shared/experiments/experiments.repo.js';

// A start that loses the one-running race to an experiment that is stopped before the loser reads it
// back: the running one it was refused for is gone, so the start is tried again instead of answering
// 409 `experiment_already_running` with `running_id: null`.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 4 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
await db('tenants').insert({ id: 'ten_race', name: 'race', locales: ['en'], default_locale: 'en' });

const repo = experimentsRepo(db);
const fields = (name: string) => ({
  name,
  variants: [
    { key: 'a', traffic_percent: 50, ranking: null, rule_ids: [] },
    { key: 'b', traffic_percent: 50, ranking: null, rule_ids: [] },
  ],
  primary_metric: 'ctr' as const,
  min_sample: 100,
});
const published: string[] = [];
const deps = (experiments: typeof repo) => ({
  db,
  notices: { publish: async (kind: string) => void published.push(kind) },
  repos: { experiments },
  existingRules: async () => [],
});

t.test('a start refused for a running experiment that then stops is tried again', async (t) => {
  const a = await repo.insert('ten_race', fields('a'));
  const b = await repo.insert('ten_race', fields('b'));
  await repo.transition('ten_race', b.id, ['draft'], 'running');
  // The race, made to happen every time: the running one stops between the refusal and its read.
  let raced = 0;
  const racing = {
    ...repo,
    async running(tenantId: string) {
      if (raced++ === 0) await repo.transition(tenantId, b.id, ['running'], 'stopped');
      return repo.running(tenantId);
    },
  };
  const started = await experimentsService(deps(racing)).start('ten_race', a.id);
  t.equal(started.status, 'running', 'the start went through on its next round');
  t.equal(started.id, a.id);
  t.equal((await repo.running('ten_race'))?.id, a.id, 'and it is the one running');
  t.equal(raced, 1, 'the refused round read the running experiment once');
});

t.test('a start refused for an experiment still running names it', async (t) => {
  const c = await repo.insert('ten_race', fields('c'));
  const d = await repo.insert('ten_race', fields('d'));
  await db('experiments').where({ tenant_id: 'ten_race', status: 'running' }).update({ status: 'stopped' });
  await repo.transition('ten_race', d.id, ['draft'], 'running');
  const running = await repo.running('ten_race');
  t.equal(running?.id, d.id);
  const err = await experimentsService(deps(repo))
    .start('ten_race', c.id)
    .then(
      () => null,
      (e: unknown) => e as { code: string; status: number; details: unknown },
    );
  t.match(err, { code: 'experiment_already_running', status: 409, details: { running_id: running?.id } });
});

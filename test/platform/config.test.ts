import t from 'tap';
import { ConfigError, loadConfig } from '../../shared/platform/config.js';

t.test('defaults apply, and a bad value is a readable ConfigError naming the variable', async (t) => {
  t.equal(loadConfig({}).sweepEveryMs, 300_000);
  t.equal(loadConfig({ SWEEP_EVERY_MS: '60000' }).sweepEveryMs, 60_000);
  for (const bad of ['often', '5']) {
    const err = (() => {
      try {
        loadConfig({ SWEEP_EVERY_MS: bad });
        return null;
      } catch (e) {
        return e;
      }
    })();
    t.ok(err instanceof ConfigError, `${bad}: a ConfigError`);
    t.match((err as Error).message, /SWEEP_EVERY_MS/);
  }
  t.throws(() => loadConfig({ WORKER_CONCURRENCY: 'catalog' }), /WORKER_CONCURRENCY/);
});

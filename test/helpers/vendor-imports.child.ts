import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

/**
 * Child of test/platform/vendor-packages.test.ts: builds an API process's dependencies and app
 * from the environment it was given and prints which vendor packages it loaded (one per line).
 */
const { port1, port2 } = new MessageChannel();
const loaded = new Set<string>();
port1.on('message', (url: string) => loaded.add(/\/node_modules\/(@qdrant\/js-client-rest|openai|typesense)\//.exec(url)![1]));
register('./vendor-imports.hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const { loadConfig } = await import('../../shared/platform/config.js');
const { createDeps } = await import('../../shared/deps.js');
const { createApp } = await import('../../api/app.js');
const deps = createDeps(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }), { role: 'api' });
createApp(deps);
// Adapters start loading their package when they are made: let that finish and its messages arrive.
await new Promise((r) => setTimeout(r, 1000));
process.stdout.write([...loaded].sort().join('\n'));
process.exit(0);

import { onShutdown } from '../../shared/platform/shutdown.js';

// A process whose stop takes STOP_MS: prints "ready" once its handlers are set, "stopped" when stop ends.
const stopMs = Number(process.env.STOP_MS ?? 1000);
const keepAlive = setInterval(() => {}, 1000);
onShutdown(async () => {
  await new Promise((r) => setTimeout(r, stopMs));
  clearInterval(keepAlive);
  process.stdout.write('stopped\n');
});
process.stdout.write('ready\n');

/**
 * Calls `stop` on SIGTERM/SIGINT, then exits. The same signal again (its default action) or the
 * deadline forces the exit; the other signal while stopping is ignored, because the API processes
 * of a cluster get SIGINT from the terminal and SIGTERM from their primary at once.
 */
export function onShutdown(stop: () => Promise<void>, deadlineMs = 10_000): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: shutting down\n`);
    setTimeout(() => process.exit(1), deadlineMs).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}

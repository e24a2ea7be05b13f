/** Calls `stop` on SIGTERM/SIGINT, then exits; a second signal or the deadline forces exit. */
export function onShutdown(stop: () => Promise<void>, deadlineMs = 10_000): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stderr.write(`${signal}: shutting down\n`);
    setTimeout(() => process.exit(1), deadlineMs).unref();
    stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}

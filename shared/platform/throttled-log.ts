import type { Logger } from './logger.js';

/**
 * A warning for errors that repeat while a dependency is down (each Redis reconnect attempt raises
 * one, every 0.2-2 s): the first is logged at once, later ones at most once per `everyMs` with how
 * many were left out since. An outage reads as a few lines, not hundreds of stack traces.
 */
export function throttledWarn(
  logger: Logger,
  msg: string,
  fields: Record<string, unknown> = {},
  everyMs = 30_000,
  now: () => number = Date.now,
): (err: unknown) => void {
  let lastAt = -Infinity;
  let skipped = 0;
  return (err) => {
    const at = now();
    if (at - lastAt < everyMs) {
      skipped++;
      return;
    }
    logger.warn(msg, { ...fields, err, ...(skipped ? { repeated: skipped } : {}) });
    lastAt = at;
    skipped = 0;
  };
}

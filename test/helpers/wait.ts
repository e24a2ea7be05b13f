/**
 * Polls `fn` until it returns a truthy value and returns that value; throws once `timeoutMs`
 * has passed. The deadline only bounds a broken run: tests never assert on how long it took.
 */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  timeoutMs = 10_000,
  what: string | (() => string) = 'condition',
  everyMs = 25,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    last = await fn();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`waitFor: ${typeof what === 'function' ? what() : what} not met within ${timeoutMs} ms (last value: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** A promise with its resolver exposed, so a test can hold a stage at a known point. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

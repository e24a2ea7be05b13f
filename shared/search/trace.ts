/** The debug trace of a search: what each step did and how long it took (only when asked). */
export class Trace {
  readonly steps: Array<{ step: string; ms: number } & Record<string, unknown>> = [];

  constructor(private on: boolean) {}

  step<T>(name: string, fn: () => T, info?: (value: T) => Record<string, unknown>): T {
    if (!this.on) return fn();
    const t0 = performance.now();
    const value = fn();
    this.steps.push({ step: name, ms: round(performance.now() - t0), ...info?.(value) });
    return value;
  }

  async stepAsync<T>(name: string, fn: () => Promise<T>, info?: (value: T) => Record<string, unknown>): Promise<T> {
    if (!this.on) return fn();
    const t0 = performance.now();
    const value = await fn();
    this.steps.push({ step: name, ms: round(performance.now() - t0), ...info?.(value) });
    return value;
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

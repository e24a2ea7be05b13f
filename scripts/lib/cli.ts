import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../../shared/platform/config.js';

/**
 * The command-line conventions of every script here: `--help` (or `-h`) prints the usage and
 * exits 0 before anything runs (`migrate --help` must not migrate); an unknown option, a missing
 * or unreadable value prints what was wrong and the usage, and exits 2, never node's stack trace.
 */
export function parseCli<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (err) {
    return usageError(usage, (err as Error).message);
  }
}

/** Prints a bad command line's problem and the usage, and exits 2. */
export function usageError(usage: string, message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

/**
 * An option's value as a number in its range (`--limit abc` is refused, not read as NaN; `above`
 * is an exclusive lower bound); undefined when the option was not given.
 */
export function numberOption(
  usage: string,
  name: string,
  value: string | undefined,
  range: { min?: number; above?: number; max?: number },
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const low = range.above ?? range.min ?? -Infinity;
  const inRange = (range.above === undefined ? n >= low : n > low) && n <= (range.max ?? Infinity);
  if (value.trim() === '' || !Number.isFinite(n) || !inRange) {
    const from = range.above !== undefined ? `above ${range.above}` : range.min !== undefined ? `from ${range.min}` : '';
    const to = range.max !== undefined ? ` up to ${range.max}` : '';
    return usageError(usage, `--${name} must be a number ${from}${to} (got ${JSON.stringify(value)})`);
  }
  return n;
}

/**
 * What a failed run prints: the error's message and its cause's (fetch's "fetch failed" says why only
 * in its cause), never a stack trace; the exit code becomes 1 (the caller still closes what it opened).
 * Bad configuration reads the same way.
 */
export function reportFailure(err: unknown): void {
  process.stderr.write(`${describe(err)}\n`);
  process.exitCode = 1;
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof ConfigError) return err.message;
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

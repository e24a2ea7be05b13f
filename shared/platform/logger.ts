/** A small structured logger: one JSON line per event on stderr. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

export function createLogger(level: keyof typeof LEVELS, base: Record<string, unknown> = {}): Logger {
  const min = LEVELS[level];
  const write = (lvl: keyof typeof LEVELS, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const line = { t: new Date().toISOString(), level: lvl, msg, ...base, ...fields };
    process.stderr.write(`${JSON.stringify(line, errorReplacer)}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

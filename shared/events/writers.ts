import type { Deps } from '../deps.js';
import { EventWriter } from './event-writer.js';

const writers = new WeakMap<Deps, EventWriter>();

/**
 * The one event writer of a deps object, started on first use. Its last flush is chained into
 * `deps.close()` so a graceful shutdown writes the buffer before Postgres closes.
 */
export function eventWriterFor(deps: Deps): EventWriter {
  let writer = writers.get(deps);
  if (writer) return writer;
  const created = new EventWriter((rows) => deps.repos.events.insertMany(rows), deps.logger);
  created.start();
  writers.set(deps, created);
  const close = deps.close;
  deps.close = async () => {
    await created.stop();
    await close.call(deps);
  };
  writer = created;
  return writer;
}

/** Writes every buffered event of this deps object now (tests, scripts). */
export async function flushEvents(deps: Deps): Promise<void> {
  await writers.get(deps)?.flush();
}

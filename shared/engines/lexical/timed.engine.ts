import { timeEngine } from '../../platform/metrics.js';
import type { EngineQuery, LexicalEngine } from './port.js';

/** The same engine with its searches timed (pss_engine_call_duration_seconds, and the request's engine part). */
export function timedEngine(engine: LexicalEngine): LexicalEngine {
  return {
    get name() {
      return engine.name;
    },
    upsert: (t, docs, settings) => engine.upsert(t, docs, settings),
    remove: (t, ids) => engine.remove(t, ids),
    beginGeneration: (t, settings, owner) => engine.beginGeneration(t, settings, owner),
    writeGeneration: (t, g, docs) => engine.writeGeneration(t, g, docs),
    swapGeneration: (t, g) => engine.swapGeneration(t, g),
    dropGeneration: (t, g) => engine.dropGeneration(t, g),
    dropBuild: (t, owner) => engine.dropBuild(t, owner),
    staleBuilds: (olderThanMs) => engine.staleBuilds(olderThanMs),
    search: (q: EngineQuery) => timeEngine(engine.name, 'search', () => engine.search(q)),
    dropTenant: (t) => engine.dropTenant(t),
    changed: (t) => engine.changed?.(t),
    // Kept absent where the engine has none: the sweep stage then does nothing.
    ...(engine.dropUnusedAlternatives && { dropUnusedAlternatives: (ms, signal) => engine.dropUnusedAlternatives!(ms, signal) }),
    ...(engine.close && { close: () => engine.close!() }),
  };
}

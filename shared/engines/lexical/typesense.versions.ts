import type { Client } from 'typesense';
import type { SearchDoc } from './port.js';
import { idFilter } from './typesense.query.js';

/** Ids a version read names in one filter (the length of a delete's filter, typesense.engine.ts). */
const READ_CHUNK = 200;

type Stored = { id?: unknown; version?: unknown };

/** Export results are JSONL; the client hands back a single line parsed and no line as ''. */
function exportLines(raw: unknown): Stored[] {
  if (raw == null || raw === '') return [];
  if (typeof raw !== 'string') return [raw as Stored];
  return raw
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Stored);
}

/**
 * The versions a collection holds for `ids` (ids it does not hold, or holds without a version, are
 * absent). One export by id filter a chunk; an id with a backtick cannot be written in a filter
 * (see toFilterKey) and is read on its own.
 */
export async function storedVersions(client: Client, collection: string, ids: string[], ignoreNotFound: (e: unknown) => null): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const keep = (d: Stored) => {
    if (typeof d.id === 'string' && typeof d.version === 'number') out.set(d.id, d.version);
  };
  const documents = client.collections(collection).documents();
  const byFilter = ids.filter((id) => !id.includes('`'));
  for (let i = 0; i < byFilter.length; i += READ_CHUNK) {
    const raw: unknown = await documents.export({ filter_by: idFilter(byFilter.slice(i, i + READ_CHUNK)), include_fields: 'id,version' });
    exportLines(raw).forEach(keep);
  }
  for (const id of ids.filter((id) => id.includes('`'))) {
    const doc = await client.collections(collection).documents(id).retrieve().catch(ignoreNotFound);
    if (doc) keep(doc as Stored);
  }
  return out;
}

/**
 * The documents that may be written over what a collection holds: all but those it holds at a newer
 * version (the Postgres engine's `source_version <= EXCLUDED.source_version`). A document without a
 * version is always written, as is one over a stored document without a version.
 */
export function notOlder(docs: SearchDoc[], stored: Map<string, number>): SearchDoc[] {
  return docs.filter((d) => {
    const held = stored.get(d.id);
    return d.version == null || held === undefined || held <= d.version;
  });
}

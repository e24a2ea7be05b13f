import type { Client } from 'typesense';
import type { EngineQuery, EngineResult, IndexSettings, LexicalEngine, SearchDoc, StaleBuild } from './port.js';
import { collectionSchema, toTypesenseDoc } from './typesense.schema.js';
import { idFilter, searchPlan, toEngineResult, type SearchParams, type TsSearchResult } from './typesense.query.js';
import { AlternativeSets, alternativesSetName, isMissingSet } from './typesense.alternatives.js';
import type { SetUsage } from './typesense.set-usage.js';
import { notOlder, storedVersions } from './typesense.versions.js';

export interface TypesenseEngineOptions {
  url: string;
  apiKey: string;
  /** Names of this deployment's aliases and collections start with `<prefix>_`. */
  collectionPrefix: string;
  connectionTimeoutSeconds?: number;
  /** Synonym sets of alternatives one process keeps at Typesense (typesense.alternatives.ts MAX_SETS). */
  maxAlternativeSets?: number;
  /** Where the sets of alternatives are marked used (typesense.set-usage.ts); without it nothing is marked and the sweep refuses to run. */
  setUsage?: SetUsage;
}

/** One document that Typesense refused during an import. */
export interface ImportFailure {
  id: string;
  error: string;
}

export class TypesenseImportError extends Error {
  constructor(
    readonly collection: string,
    readonly failures: ImportFailure[],
    total: number,
  ) {
    super(
      `typesense import into ${collection}: ${failures.length} of ${total} documents failed: ` +
        failures
          .slice(0, 20)
          .map((f) => `${f.id} (${f.error})`)
          .join(', ') +
        (failures.length > 20 ? ', ...' : ''),
    );
  }
}

interface Generations {
  /** The generation the alias points to; null before the tenant's first write. */
  serving: number | null;
  /** Every generation that has a collection, ascending. */
  all: number[];
}

type MultiSearchItem = TsSearchResult & { code?: number; error?: string };

const DELETE_CHUNK = 200;
/**
 * The `typesense` package, loaded when an engine is made (only when SEARCH_ENGINE is typesense: a
 * sixth of a second to import and about 20 MB of memory the built-in default never pays). Its
 * error classes once loaded: an error can only be one of them after that.
 */
let sdk: typeof import('typesense') | undefined;
const loadSdk = () => import('typesense').then((m) => (sdk = m));
const isNotFound = (e: unknown) => sdk !== undefined && e instanceof sdk.Errors.ObjectNotFound;
const ignoreNotFound = (e: unknown): null => {
  if (!isNotFound(e)) throw e;
  return null;
};

/**
 * The v3 client passes its own `throwOnFail` option to the server as a query parameter on
 * every import; the server does not know it. Same encoding as the client's default otherwise.
 */
function serializeParams(params: Record<string, unknown>): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null && k !== 'throwOnFail') out.append(k, String(v));
  return out.toString();
}

/** Import results are JSONL, one line per document in request order (the client may hand back a parsed single line). */
function importResults(raw: unknown): Array<{ success: boolean; error?: string }> {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return [raw as { success: boolean; error?: string }];
  return raw
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/**
 * Typesense adapter: a collection per tenant generation (`<prefix>_<tenant>_g<N>`) behind the
 * alias `<prefix>_<tenant>`. Collections newer than the alias target are generations being built.
 */
export class TypesenseEngine implements LexicalEngine {
  readonly name = 'typesense';
  private client: Promise<Client>;
  private prefix: string;
  private sets: AlternativeSets;
  private usage: SetUsage | null;

  constructor(opts: TypesenseEngineOptions) {
    this.prefix = opts.collectionPrefix;
    this.client = loadSdk().then(
      ({ Client }) =>
        new Client({
          nodes: [{ url: opts.url }],
          apiKey: opts.apiKey,
          connectionTimeoutSeconds: opts.connectionTimeoutSeconds ?? 10,
          paramsSerializer: serializeParams,
          logLevel: 'error',
        }),
    );
    this.client.catch(() => undefined);
    this.sets = new AlternativeSets(this.client, opts.maxAlternativeSets, opts.setUsage);
    this.usage = opts.setUsage ?? null;
  }

  async close(): Promise<void> {
    await this.usage?.close();
  }

  private alias(tenantId: string): string {
    return `${this.prefix}_${tenantId}`;
  }

  private collection(tenantId: string, generation: number): string {
    return `${this.alias(tenantId)}_g${generation}`;
  }

  private async aliasExists(alias: string): Promise<boolean> {
    const client = await this.client;
    return (await client.aliases(alias).retrieve().catch(ignoreNotFound)) !== null;
  }

  private async generations(tenantId: string): Promise<Generations> {
    const alias = this.alias(tenantId);
    const client = await this.client;
    const [target, collections] = await Promise.all([
      client
        .aliases(alias)
        .retrieve()
        .then((a) => a.collection_name, ignoreNotFound),
      client.collections().retrieve({ exclude_fields: 'fields' }),
    ]);
    const generationOf = (name: string | null) => {
      const m = name?.startsWith(`${alias}_g`) ? /^\d+$/.exec(name.slice(alias.length + 2)) : null;
      return m ? Number(m[0]) : null;
    };
    const all = collections
      .map((c) => generationOf(c.name))
      .filter((g): g is number => g != null)
      .sort((a, b) => a - b);
    return { serving: generationOf(target), all };
  }

  private async createCollection(tenantId: string, generation: number, settings: IndexSettings, owner?: string): Promise<void> {
    const client = await this.client;
    const schema = collectionSchema(this.collection(tenantId, generation), settings);
    try {
      await client.collections().create(owner ? { ...schema, metadata: { reindex_job: owner } } : schema);
    } catch (e) {
      // Another process created it first (two first writes of a tenant at once).
      if (!(sdk !== undefined && e instanceof sdk.Errors.ObjectAlreadyExists)) throw e;
    }
  }

  private async dropCollection(name: string): Promise<void> {
    const client = await this.client;
    await client.collections(name).delete().catch(ignoreNotFound);
  }

  /** The tenant's generations, creating the first one and its alias on first use. */
  private async ensureServing(tenantId: string, settings: IndexSettings): Promise<Generations & { serving: number }> {
    const client = await this.client;
    const g = await this.generations(tenantId);
    if (g.serving != null) return { ...g, serving: g.serving };
    const first = g.all[0] ?? 1;
    if (!g.all.includes(first)) await this.createCollection(tenantId, first, settings);
    await client.aliases().upsert(this.alias(tenantId), { collection_name: this.collection(tenantId, first) });
    return { serving: first, all: g.all.length ? g.all : [first] };
  }

  /**
   * Upserts as JSONL and reads every result line: any refused document fails the call, naming it.
   * A document never goes back to an older product version: Typesense has no conditional write, so
   * the versions the collection holds are read first and documents it holds newer are left out.
   * What remains open: a newer version written by another process between that read and this
   * import is overwritten (until the product's next write).
   */
  private async importDocs(collection: string, all: SearchDoc[]): Promise<void> {
    if (!all.length) return;
    const client = await this.client;
    const ids = all.map((d) => d.id);
    const docs = notOlder(all, await storedVersions(client, collection, ids, ignoreNotFound));
    if (!docs.length) return;
    const body = docs.map((d) => JSON.stringify(toTypesenseDoc(d))).join('\n');
    const raw: unknown = await client.collections(collection).documents().import(body, { action: 'upsert' });
    const results = importResults(raw);
    if (results.length !== docs.length) {
      throw new Error(`typesense import into ${collection}: ${results.length} result lines for ${docs.length} documents`);
    }
    const failures = results.flatMap((r, i) => (r.success ? [] : [{ id: docs[i].id, error: String(r.error ?? 'unknown error') }]));
    if (failures.length) throw new TypesenseImportError(collection, failures, docs.length);
  }

  async upsert(tenantId: string, docs: SearchDoc[], settings: IndexSettings): Promise<void> {
    if (!docs.length) return;
    const g = await this.ensureServing(tenantId, settings);
    const live = [g.serving, ...g.all.filter((n) => n > g.serving)];
    await Promise.all(live.map((n) => this.importDocs(this.collection(tenantId, n), docs)));
  }

  async remove(tenantId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    const client = await this.client;
    const { all } = await this.generations(tenantId);
    // A backtick cannot be written inside a filter value: those few go one by one.
    const byFilter = ids.filter((id) => !id.includes('`'));
    const oneByOne = ids.filter((id) => id.includes('`'));
    for (const n of all) {
      const documents = client.collections(this.collection(tenantId, n)).documents();
      for (let i = 0; i < byFilter.length; i += DELETE_CHUNK) {
        await documents.delete({ filter_by: idFilter(byFilter.slice(i, i + DELETE_CHUNK)) }).catch(ignoreNotFound);
      }
      for (const id of oneByOne) {
        await client.collections(this.collection(tenantId, n)).documents(id).delete().catch(ignoreNotFound);
      }
    }
  }

  async beginGeneration(tenantId: string, settings: IndexSettings, owner?: string): Promise<number> {
    const g = await this.ensureServing(tenantId, settings);
    // A generation still being built belongs to an abandoned reindex.
    for (const n of g.all.filter((n) => n > g.serving)) await this.dropCollection(this.collection(tenantId, n));
    const next = Math.max(g.serving, ...g.all) + 1;
    await this.createCollection(tenantId, next, settings, owner);
    return next;
  }

  async writeGeneration(tenantId: string, generation: number, docs: SearchDoc[]): Promise<void> {
    await this.importDocs(this.collection(tenantId, generation), docs);
  }

  async swapGeneration(tenantId: string, generation: number): Promise<void> {
    const client = await this.client;
    const g = await this.generations(tenantId);
    if (!g.all.includes(generation) || (g.serving != null && generation <= g.serving)) {
      throw new Error(`generation ${generation} is not being built for ${tenantId}`);
    }
    await client.aliases().upsert(this.alias(tenantId), { collection_name: this.collection(tenantId, generation) });
    for (const n of g.all.filter((n) => n < generation)) await this.dropCollection(this.collection(tenantId, n));
  }

  async dropGeneration(tenantId: string, generation: number): Promise<void> {
    const g = await this.generations(tenantId);
    if (g.serving === generation) throw new Error(`generation ${generation} is serving ${tenantId}; it cannot be dropped`);
    await this.dropCollection(this.collection(tenantId, generation));
  }

  async dropBuild(tenantId: string, owner: string): Promise<number | null> {
    const built = (await this.builds()).find((b) => b.tenantId === tenantId && b.owner === owner);
    if (!built) return null;
    await this.dropCollection(this.collection(tenantId, built.generation));
    return built.generation;
  }

  async staleBuilds(olderThanMs: number): Promise<StaleBuild[]> {
    const before = (Date.now() - olderThanMs) / 1000;
    return (await this.builds()).filter((b) => b.createdAt < before).map(({ createdAt: _c, ...b }) => b);
  }

  /** Every tenant's collections newer than its alias target (generations being built), from one listing of the collections. */
  private async builds(): Promise<Array<StaleBuild & { createdAt: number }>> {
    const client = await this.client;
    const head = `${this.prefix}_`;
    const byTenant = new Map<string, Array<StaleBuild & { createdAt: number }>>();
    for (const c of await client.collections().retrieve({ exclude_fields: 'fields' })) {
      const m = c.name.startsWith(head) ? /^(.+)_g(\d+)$/.exec(c.name.slice(head.length)) : null;
      if (!m) continue;
      const owner = (c as { metadata?: { reindex_job?: unknown } }).metadata?.reindex_job;
      const list = byTenant.get(m[1]) ?? [];
      list.push({ tenantId: m[1], generation: Number(m[2]), owner: typeof owner === 'string' ? owner : null, createdAt: c.created_at });
      byTenant.set(m[1], list);
    }
    const out: Array<StaleBuild & { createdAt: number }> = [];
    for (const [tenantId, list] of byTenant) {
      const target = await client
        .aliases(this.alias(tenantId))
        .retrieve()
        .then((a) => a.collection_name, ignoreNotFound);
      // Without an alias the oldest collection is the one ensureServing would serve.
      const serving = target ? Number(/_g(\d+)$/.exec(target)?.[1] ?? Infinity) : Math.min(...list.map((b) => b.generation));
      out.push(...list.filter((b) => b.generation > serving));
    }
    return out;
  }

  async dropTenant(tenantId: string): Promise<void> {
    const client = await this.client;
    const { all } = await this.generations(tenantId);
    await client.aliases(this.alias(tenantId)).delete().catch(ignoreNotFound);
    for (const n of all) await this.dropCollection(this.collection(tenantId, n));
    await this.sets.dropTenant(this.alias(tenantId), ignoreNotFound);
  }

  async dropUnusedAlternatives(olderThanMs: number, signal?: AbortSignal): Promise<{ deleted: number; kept: number; unmarked: number }> {
    return this.sets.sweep(`${this.prefix}_`, olderThanMs, ignoreNotFound, signal);
  }

  /**
   * One search through the alias; a multi_search when facets need counts without their own filter.
   * Every search names the query's synonym set of alternatives when it has one (typesense.alternatives.ts).
   */
  async search(q: EngineQuery): Promise<EngineResult> {
    const plan = searchPlan(q);
    const alias = this.alias(q.tenantId);
    const set = plan.alternatives.length ? alternativesSetName(alias, plan.alternatives) : null;
    const searches = [plan.main, ...plan.extras].map((p) => (set ? { ...p, synonym_sets: set } : p));
    if (!set) return toEngineResult(plan, (await this.run(alias, searches)) ?? []);
    await this.sets.ensure(set, plan.alternatives);
    const results = await this.run(alias, searches).catch(async (e: unknown) => {
      // Deleted since this process wrote it (swept as unused, its tenant dropped, evicted by another process): written again.
      if (!isMissingSet((e as Error).message)) throw e;
      await this.sets.ensure(set, plan.alternatives, true);
      return this.run(alias, searches);
    });
    return toEngineResult(plan, results ?? []);
  }

  /** The searches' results in order; null when the tenant has never been indexed (no alias). */
  private async run(alias: string, searches: SearchParams[]): Promise<TsSearchResult[] | null> {
    const client = await this.client;
    try {
      if (searches.length === 1) {
        return [
          (await client
            .collections(alias)
            .documents()
            .search(searches[0] as never)) as TsSearchResult,
        ];
      }
      const res = (await client.multiSearch.perform({ searches: searches.map((p) => ({ collection: alias, ...p })) } as never)) as unknown as {
        results: MultiSearchItem[];
      };
      const failed = res.results.find((r) => r.error);
      if (failed?.code === 404 && !isMissingSet(failed.error) && !(await this.aliasExists(alias))) return null;
      if (failed) throw new Error(`typesense multi_search on ${alias}: ${failed.code} ${failed.error}`);
      return res.results;
    } catch (e) {
      // No alias: the tenant has never been indexed. Any other 404 (an unknown field) is an error.
      if (isNotFound(e) && !isMissingSet((e as Error).message) && !(await this.aliasExists(alias))) return null;
      throw e;
    }
  }
}

import type { Knex } from 'knex';
import type { Embedder, EmbedderSource } from './port.js';
import { CatalogModel, trainCatalogModel } from './catalog-model.js';

export const CATALOG_DIMS = 64;
/** Most product texts a model trains on (a sample beyond it): bounds training memory and time. */
const MAX_TRAIN_TEXTS = 100_000;
/** Loaded models kept per process (about 5-13 MB each). */
const MAX_LOADED = 32;

function catalogEmbedder(id: string, model: CatalogModel): Embedder {
  return { id, dims: model.dims, embed: async (texts) => texts.map((t) => model.embed(t)) };
}

/**
 * The default embedder: one model per store trained on its own catalog text (PPMI + truncated SVD
 * over words and character 3-grams; see catalog-model.ts), versioned in `embedder_models`, ids
 * `catalog-v<version>`. Catalog-learned relatedness, not general semantics.
 */
export class CatalogEmbedderSource implements EmbedderSource {
  readonly kind = 'catalog' as const;
  private loaded = new Map<string, Promise<Embedder | null>>();

  constructor(
    private db: Knex,
    private dims = CATALOG_DIMS,
  ) {}

  byId(tenantId: string, embedderId: string): Promise<Embedder | null> {
    const m = /^catalog-v(\d+)$/.exec(embedderId);
    if (!m) return Promise.resolve(null);
    const key = `${tenantId}\u0000${embedderId}`;
    let hit = this.loaded.get(key);
    if (!hit) {
      hit = this.db('embedder_models')
        .where({ tenant_id: tenantId, version: Number(m[1]) })
        .first('model')
        .then((row: { model: Buffer } | undefined) => (row ? catalogEmbedder(embedderId, CatalogModel.fromBuffer(row.model)) : null));
      hit.catch(() => this.loaded.delete(key));
      if (this.loaded.size >= MAX_LOADED) this.loaded.delete(this.loaded.keys().next().value!);
      this.loaded.set(key, hit);
    }
    return hit;
  }

  /** Trains a new model version on the store's texts and stores it; older versions stay until their vectors are dropped. */
  async prepare(tenantId: string, texts: () => AsyncIterable<string[]>): Promise<Embedder> {
    const all: string[] = [];
    let seen = 0;
    for await (const chunk of texts()) {
      for (const t of chunk) {
        seen++;
        // Reservoir sample: every product equally likely to be in a capped training set.
        if (all.length < MAX_TRAIN_TEXTS) all.push(t);
        else {
          const j = Math.floor(Math.random() * seen);
          if (j < MAX_TRAIN_TEXTS) all[j] = t;
        }
      }
    }
    const model = await trainCatalogModel(all, this.dims);
    const version = await this.db.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`embedder-${tenantId}`]);
      const [{ max }] = await trx('embedder_models').where({ tenant_id: tenantId }).max({ max: 'version' });
      const next = Number(max ?? 0) + 1;
      await trx('embedder_models').insert({
        tenant_id: tenantId,
        version: next,
        embedder_id: `catalog-v${next}`,
        dims: this.dims,
        products: seen,
        model: model.toBuffer(),
      });
      return next;
    });
    const id = `catalog-v${version}`;
    const embedder = catalogEmbedder(id, model);
    this.loaded.set(`${tenantId}\u0000${id}`, Promise.resolve(embedder));
    return embedder;
  }

  /** Products the newest model was trained on (null: none yet): retrain when the catalog moved far from it. */
  async trainedOn(tenantId: string): Promise<number | null> {
    const row = await this.db('embedder_models').where({ tenant_id: tenantId }).orderBy('version', 'desc').first('products');
    return row ? Number(row.products) : null;
  }
}

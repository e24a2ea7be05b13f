import type { SearchDoc } from '../engines/lexical/port.js';
import type { Embedder, EmbedderSource } from '../engines/embedder/port.js';
import type { VectorGeneration, VectorStore } from '../engines/vectors/port.js';
import { vectorPayload, vectorText } from './vector-text.js';
import { removeUnstored } from '../catalog/index.js';

export interface EmbedDeps {
  vectors: VectorStore;
  embedders: EmbedderSource;
  repos: { products: { existingIds(tenantId: string, ids: string[]): Promise<Set<string>> } };
}

/** Embeds documents with one embedder and writes them into one generation, `batch` texts per call. */
export async function embedInto(
  d: EmbedDeps,
  tenantId: string,
  gen: number,
  embedder: Embedder,
  docs: SearchDoc[],
  batch = 128,
  signal?: AbortSignal,
): Promise<void> {
  for (let i = 0; i < docs.length; i += batch) {
    const chunk = docs.slice(i, i + batch);
    const vectors = await embedder.embed(chunk.map(vectorText), { signal });
    await d.vectors.upsert(
      tenantId,
      gen,
      chunk.map((doc, j) => ({ id: doc.id, vector: vectors[j], payload: vectorPayload(doc), version: doc.version })),
    );
    // A product deleted while it was embedded had its vectors removed before this write landed: taken out again here.
    await removeUnstored(
      d.repos.products,
      tenantId,
      chunk.map((doc) => doc.id),
      (ids) => d.vectors.remove(tenantId, ids),
    );
  }
}

/**
 * Writes documents into every live generation of the store (serving and building), each with its
 * own embedder. Returns false when the store has no generation yet (a full build must run first).
 */
export async function embedLive(d: EmbedDeps, tenantId: string, docs: SearchDoc[], batch?: number): Promise<boolean> {
  const { active, building } = await d.vectors.generations(tenantId);
  const live = [active, building].filter((g): g is VectorGeneration => !!g);
  if (!live.length) return false;
  for (const g of live) {
    const embedder = await d.embedders.byId(tenantId, g.embedderId);
    if (embedder) await embedInto(d, tenantId, g.generation, embedder, docs, batch);
  }
  return !!active;
}

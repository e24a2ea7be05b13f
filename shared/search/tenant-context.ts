import type { Notices } from '../platform/notices.js';
import { TenantCache } from './tenant-cache.js';
import { SuggestDictionary } from './suggest-dictionary.js';
import { Vocabulary } from './vocabulary.js';
import type { SuggestRow, VocabularyCounts } from './vocabulary.repo.js';
import { buildContext, type ContextSources, type TenantSearchContext } from './context-loader.js';

export type { TenantSearchContext };

export interface TenantContextSources extends ContextSources {
  suggestTerms(tenantId: string): Promise<SuggestRow[]>;
  vocabulary(tenantId: string): Promise<Pick<VocabularyCounts, 'terms' | 'products'> & Partial<VocabularyCounts>>;
}

/**
 * What search and suggest hold per tenant in this process, each a TenantCache (served from
 * memory, reloaded in the background, idle tenants dropped): the search context, the suggestion
 * dictionary and the vocabulary. Follows the notices: vocabulary reloads the dictionary and the
 * vocabulary (a new dictionary rebuilds the context), context rebuilds the context with the
 * catalog's values, synonyms drops the context so the next search reads the new rules.
 */
export class TenantContexts {
  readonly dictionaries: TenantCache<SuggestDictionary>;
  readonly vocabularies: TenantCache<Vocabulary>;
  private contexts: TenantCache<TenantSearchContext | null>;
  /** Tenants whose next context build reads the catalog's values again. */
  private catalogChanged = new Set<string>();
  private replacedListeners: Array<(tenantId: string) => void> = [];

  constructor(src: TenantContextSources, notices: Notices, ttlMs = 5 * 60_000) {
    const replaced = (tenantId: string) => this.replacedListeners.forEach((fn) => fn(tenantId));
    this.contexts = new TenantCache(
      async (id) => {
        const fresh = this.catalogChanged.delete(id);
        return buildContext(src, id, await this.dictionaries.get(id), this.contexts.peek(id), fresh);
      },
      { ttlMs, replaced },
    );
    // The context's brands and categories come from the dictionary: a new one rebuilds the context.
    this.dictionaries = new TenantCache(async (id) => new SuggestDictionary(await src.suggestTerms(id)), { replaced: (id) => this.catalogUpdated(id) });
    // Cached results carry corrections and did-you-mean from the vocabulary they were made with.
    this.vocabularies = new TenantCache(
      async (id) => {
        const { terms, products, heads, nameWords, openings, variants, described } = await src.vocabulary(id);
        return new Vocabulary(terms, products, heads, nameWords, openings, variants, described);
      },
      { replaced },
    );
    notices.on('vocabulary', (id) => {
      this.dictionaries.changed(id);
      this.vocabularies.changed(id);
    });
    notices.on('context', (id) => this.catalogUpdated(id));
    notices.on('synonyms', (id) => this.contexts.forget(id));
  }

  /** The tenant's search context (null: no such tenant); only the first request waits for its load. */
  get(tenantId: string): Promise<TenantSearchContext | null> {
    return this.contexts.get(tenantId);
  }

  /** Called with a tenant whose context or vocabulary was replaced: what was made with the old one is stale. */
  onReplaced(listener: (tenantId: string) => void): void {
    this.replacedListeners.push(listener);
  }

  private catalogUpdated(tenantId: string): void {
    this.catalogChanged.add(tenantId);
    this.contexts.changed(tenantId);
  }
}

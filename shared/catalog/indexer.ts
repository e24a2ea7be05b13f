import type { ProductRow } from './products.repo.js';
import type { MappingItem } from './mapping.js';
import type { IndexSettings, SearchDoc } from '../engines/lexical/port.js';
import { mappingIndex } from './mapping.js';
import { buildSearchDoc, indexSettings } from './search-doc.js';

/** What indexing a tenant's products needs once per batch: the mapping index and engine settings. */
export interface IndexContextDeps {
  repos: {
    tenants: { find(id: string): Promise<{ locales: string[] } | undefined> };
    mappings: { get(tenantId: string): Promise<{ items: MappingItem[] }> };
  };
}

export async function indexContext(deps: IndexContextDeps, tenantId: string) {
  const [tenant, mapping] = await Promise.all([deps.repos.tenants.find(tenantId), deps.repos.mappings.get(tenantId)]);
  const settings: IndexSettings = indexSettings(mapping.items, tenant?.locales ?? ['en']);
  const index = mappingIndex(mapping.items);
  return {
    settings,
    toDocs(rows: ProductRow[]): SearchDoc[] {
      return rows.map((r) => {
        const doc = buildSearchDoc(r.data, index, r.created_at);
        doc.version = r.updated_at.getTime();
        return doc;
      });
    },
  };
}

import type { Harness } from '../helpers/harness.js';

/** The shop origin the storefront tests' public keys allow. */
export const ORIGIN = 'https://shop.example';

/**
 * A public key of the store allowing ORIGIN, and one products query through the Algolia
 * multi-query route with it (`request`: the query's fields, e.g. `{ params: 'query=x' }`).
 */
export async function storefrontKey(h: Harness, tenantId: string, key: string) {
  const pk: string = (await h.api.call('POST', '/v1/keys', { key, body: { name: 'storefront', kind: 'public', allowed_origins: [ORIGIN] } })).body.key;
  const query = (request: Record<string, unknown>) =>
    h.api.call('POST', '/algolia/1/indexes/*/queries', {
      body: { requests: [{ indexName: 'products', ...request }] },
      headers: { 'x-algolia-api-key': pk, 'x-algolia-application-id': tenantId, origin: ORIGIN },
    });
  return { pk, query };
}

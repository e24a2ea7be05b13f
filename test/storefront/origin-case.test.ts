import t, { type Test } from 'tap';
import { setup } from '../helpers/harness.js';

// allowed_origins are accepted as written (`https://Shop.Example`, `https://shop.example:443`); browsers send the Origin
// in lower case and without the default port, so the key must be compared in that form or it can never be used.
const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();

async function publicKey(t: Test, origins: string[]): Promise<string> {
  const res = await h.api.call('POST', '/v1/keys', { key, body: { name: 'storefront', kind: 'public', allowed_origins: origins } });
  t.equal(res.status, 201, `created with ${origins.join(', ')}`);
  return res.body.key;
}

/** One products query as the browser lite client sends it: credentials in the query string, text/plain body. */
const search = (pk: string, origin: string) =>
  h.api.call('POST', `/algolia/1/indexes/*/queries?x-algolia-api-key=${pk}&x-algolia-application-id=${tenantId}`, {
    rawBody: JSON.stringify({ requests: [{ indexName: 'products', query: '' }] }),
    headers: { origin, 'content-type': 'text/plain' },
  });

t.test('an allowed origin written in capitals or with its default port admits the browser origin', async (t) => {
  const cases: Array<[string, string]> = [
    ['https://Shop.Example', 'https://shop.example'],
    ['https://shop.example:443', 'https://shop.example'],
    ['http://localhost:80', 'http://localhost'],
    ['https://*.Example.com', 'https://de.example.com'],
  ];
  for (const [allowed, origin] of cases) {
    const res = await search(await publicKey(t, [allowed]), origin);
    t.equal(res.status, 200, `${allowed} admits ${origin}`);
    t.equal(res.body.results?.[0]?.nbHits, 0, 'the store answers (it has no products)');
  }
});

t.test('other origins stay refused', async (t) => {
  const pk = await publicKey(t, ['https://Shop.Example', 'https://*.Example.com']);
  const cases = ['https://shop.example:8443', 'http://shop.example', 'https://evil.example', 'https://example.com', 'https://evilexample.com'];
  for (const origin of cases) {
    const res = await search(pk, origin);
    t.equal(res.status, 403, origin);
    t.equal(res.body.error?.code, 'origin_not_allowed');
  }
  const port = await publicKey(t, ['https://shop.example:8443']);
  t.equal((await search(port, 'https://shop.example')).status, 403, 'a port other than the default one still counts');
});

/** Searches that find products in the shipped samples: English ones on the Flipkart sample, Arabic ones on the demo store. */
export const SAMPLE_SEARCHES: Array<{ note: string; path: string }> = [
  { note: 'English, Flipkart sample', path: '/v1/search?q=running+shoes&per_page=5' },
  { note: 'English, with a filter and facets', path: '/v1/search?q=watch&filter[price][lte]=1000&facets=brand,price,category_tree' },
  { note: 'Arabic: عباية سوداء (black abaya), demo store', path: `/v1/search?q=${encodeURIComponent('عباية سوداء')}&per_page=5` },
  { note: 'Arabic: جوال سامسونج (Samsung phone), demo store', path: `/v1/search?q=${encodeURIComponent('جوال سامسونج')}&facets=brand,price` },
  { note: 'as-you-type suggestions', path: '/v1/suggest?q=sams' },
];

/** Searches for any catalog (--file / DEMO_CATALOG). */
const ANY_CATALOG_SEARCHES: Array<{ note: string; path: string }> = [
  { note: 'search', path: '/v1/search?q=black&per_page=5&facets=brand,price,category_tree' },
  { note: 'as-you-type suggestions', path: '/v1/suggest?q=bl' },
];

/** The curl commands `npm run demo` prints (`$KEY` is printed above them). */
export function demoExamples(base: string, samples: boolean): string[] {
  const auth = '-H "Authorization: Bearer $KEY"';
  // -g: without it curl reads the brackets of filter[...] as a URL pattern and fails.
  return [
    ...(samples ? SAMPLE_SEARCHES : ANY_CATALOG_SEARCHES).flatMap(({ note, path }) => [
      `# ${note}`,
      `curl -s${path.includes('[') ? 'g' : ''} "${base}${path}" ${auth}`,
    ]),
    '# products, the API document',
    `curl -s "${base}/v1/products?limit=2" ${auth}`,
    `curl -s "${base}/v1/openapi.json" | head -c 300`,
  ];
}

import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { createOpenApiChecker, type OpenApiDoc } from './openapi-check.js';

const spec = parseYaml(readFileSync(new URL('../../../shared/spec/vendor/typesense-openapi.yml', import.meta.url), 'utf8')) as OpenApiDoc;

/** Checks requests against the vendor's Typesense 30.0 OpenAPI document, with the two gaps the server is known to accept. */
export const typesenseChecker = createOpenApiChecker(spec, {
  apiKeyHeader: 'X-TYPESENSE-API-KEY',
  allow: [
    {
      operationId: 'importDocuments',
      contentType: 'text/plain',
      reason: 'the official typesense-js v3 client sends JSONL imports as text/plain; the document lists application/octet-stream and the server reads either',
    },
    {
      operationId: 'multiSearch',
      property: 'synonym_sets',
      reason:
        'the document lists synonym_sets under SearchParameters only, but the server reads every multi_search search through the same ' +
        'parameter parsing as a single search (core_api.cpp post_multi_search -> CollectionManager::do_search, which takes synonym_sets)',
    },
  ],
});

import { resolve } from 'node:path';
import { loadCatalog } from './lib/load-catalog.js';
import { detectCatalogKind, type CatalogKind } from './catalog/mappers.js';
import { numberOption, parseCli, reportFailure, usageError } from './lib/cli.js';

const USAGE =
  'usage: npm run load -- --file <catalog.jsonl.gz> --key <secret key> [--url URL] [--kind chorus|flipkart|product-in] [--limit N] [--in-flight N] [--checkpoint FILE] [--without-categories]';
const KINDS: CatalogKind[] = ['chorus', 'flipkart', 'product-in'];

/**
 * npm run load -- --file ../shared/data/flipkart-products/products.jsonl.gz --key sk_live_... [--url http://localhost:8080]
 *   [--limit N] [--checkpoint .load-state.json] [--without-categories]  Sends a catalog through the public batch API; resumable
 *   with --checkpoint. --without-categories sends no product's categories: the catalog as a store that has none would send it.
 */
const { values } = parseCli(USAGE, {
  options: {
    file: { type: 'string' },
    key: { type: 'string', default: process.env.API_KEY },
    url: { type: 'string', default: 'http://localhost:8080' },
    kind: { type: 'string' },
    limit: { type: 'string' },
    checkpoint: { type: 'string' },
    'in-flight': { type: 'string', default: '3' },
    'without-categories': { type: 'boolean', default: false },
  },
});
if (!values.file || !values.key) usageError(USAGE, `${values.file ? '--key (or API_KEY)' : '--file'} is required`);
if (values.kind && !KINDS.includes(values.kind as CatalogKind)) usageError(USAGE, `--kind must be one of ${KINDS.join(', ')} (got ${values.kind})`);
const limit = numberOption(USAGE, 'limit', values.limit, { min: 0 });
const inFlight = numberOption(USAGE, 'in-flight', values['in-flight'], { min: 1, max: 64 });
const file = resolve(values.file!);
let kind = values.kind as CatalogKind | undefined;
try {
  kind ??= detectCatalogKind(file);
} catch (err) {
  usageError(USAGE, (err as Error).message);
}
try {
  const result = await loadCatalog({
    url: values.url!,
    key: values.key!,
    file,
    kind: kind!,
    limit,
    checkpoint: values.checkpoint,
    runId: values.checkpoint ? 'resumable' : String(Date.now()),
    inFlight,
    progress: true,
    transform: values['without-categories'] ? ({ categories: _dropped, ...rest }) => rest : undefined,
  });
  process.stdout.write(
    `${JSON.stringify({ sent: result.sent, upserted: result.upserted, unchanged: result.unchanged, errors: result.errors.length, seconds: result.seconds })}\n`,
  );
  for (const e of result.errors.slice(0, 20)) process.stdout.write(`  error ${e.id ?? '?'} ${e.code}: ${e.message}\n`);
} catch (err) {
  reportFailure(err);
}

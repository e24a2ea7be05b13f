import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../../shared/platform/config.js';
import { readJsonl } from '../catalog/read-jsonl.js';
import type { FlipkartRaw } from '../catalog/flipkart.mapper.js';
import { selectFlipkartSample } from './flipkart-selection.js';
import { FLIPKART_SAMPLE } from './samples.js';
import { numberOption, parseCli } from '../lib/cli.js';

/**
 * npx tsx scripts/sample/select-flipkart.ts [--from <products.jsonl.gz>] [--count 3000]
 * Rewrites scripts/sample/flipkart-sample.jsonl.gz from the full Flipkart catalog in ../shared/data (SHARED_DATA_DIR).
 * The output is byte-for-byte the same for the same input, so a re-run shows no diff.
 */
const USAGE = 'usage: npm run sample:flipkart [-- [--from <products.jsonl.gz>] [--count 3000]]';
const { values } = parseCli(USAGE, { options: { from: { type: 'string' }, count: { type: 'string', default: '3000' } } });
const count = numberOption(USAGE, 'count', values.count, { min: 1 })!;
const from = values.from ?? join(loadConfig().sharedDataDir, 'flipkart-products', 'products.jsonl.gz');
const records: FlipkartRaw[] = [];
for await (const raw of readJsonl(from)) records.push(raw as FlipkartRaw);
const sample = selectFlipkartSample(records, count);
const body = gzipSync(sample.map((r) => JSON.stringify(r)).join('\n') + '\n', { level: 9 });
writeFileSync(FLIPKART_SAMPLE.file, body);
process.stdout.write(`${sample.length} of ${records.length} records -> ${FLIPKART_SAMPLE.file} (${Math.round(body.length / 1024)} KB)\n`);

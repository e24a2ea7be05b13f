import { readFileSync } from 'node:fs';
import pg from 'pg';
import { fromBytes } from '../shared/engines/vectors/port.js';
import { neighbourLists } from '../shared/engines/vectors/neighbour-lists.js';

/**
 * bench/neighbour-recall <database url> <tenant id>: a store's serving vectors (a kept eval or
 * bench database), their exact similar lists, then the inverted file's at several probe counts
 * (forced, whatever the store's size): time of each and recall@24 / recall@5 against the exact.
 */
const [url, tenant] = process.argv.slice(2);
if (!url || !tenant) throw new Error('usage: tsx bench/neighbour-recall.ts <database url> <tenant id>');
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query(
  `SELECT v.product_id, v.vector, v.payload, v.dims FROM product_vectors v
     JOIN vector_generations g ON g.tenant_id = v.tenant_id AND g.active = v.generation
    WHERE v.tenant_id = $1 ORDER BY v.product_id`,
  [tenant],
);
await client.end();
if (!rows.length) throw new Error('no serving vectors for that tenant');
const dims: number = rows[0].dims;
const ids: string[] = rows.map((r) => r.product_id);
const data = new Float32Array(ids.length * dims);
rows.forEach((r, i) => data.set(fromBytes(r.vector), i * dims));
const input = { ids, data, dims, visible: (i: number) => rows[i].payload.visible !== false };
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

let t0 = performance.now();
const exact = await neighbourLists(input, 24, undefined, { exactMax: Infinity });
process.stdout.write(`${ids.length} x ${dims}: exact ${((performance.now() - t0) / 1000).toFixed(1)} s (load ${load()})\n`);
for (const probes of [6, 12, 24]) {
  t0 = performance.now();
  const ivf = await neighbourLists(input, 24, undefined, { exactMax: 0, probes });
  const seconds = (performance.now() - t0) / 1000;
  let found = 0;
  let asked = 0;
  let found5 = 0;
  let asked5 = 0;
  exact.forEach((e, i) => {
    const truth = new Set(e.ids);
    const truth5 = new Set(e.ids.slice(0, 5));
    found += ivf[i].ids.filter((id) => truth.has(id)).length;
    found5 += ivf[i].ids.slice(0, 5).filter((id) => truth5.has(id)).length;
    asked += truth.size;
    asked5 += truth5.size;
  });
  process.stdout.write(
    `inverted file, ${probes} probes: ${seconds.toFixed(1)} s   recall@24 ${(found / asked).toFixed(3)}   recall@5 ${(found5 / asked5).toFixed(3)}   (load ${load()})\n`,
  );
}

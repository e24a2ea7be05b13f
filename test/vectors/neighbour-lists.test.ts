import t from 'tap';
import { neighbourLists } from '../../shared/engines/vectors/neighbour-lists.js';

// Deterministic clustered unit vectors, as a catalog's products group by kind.
function catalog(n: number, dims: number, groups: number, noise = 0.6, seed = 11) {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const centres = Array.from({ length: groups }, () => Array.from({ length: dims }, rnd));
  const data = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) {
    const c = centres[i % groups];
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += (data[i * dims + d] = c[d] + noise * rnd()) ** 2;
    for (let d = 0; d < dims; d++) data[i * dims + d] /= Math.sqrt(norm);
  }
  return { ids: Array.from({ length: n }, (_, i) => `p${i}`), data, dims };
}

function exact(c: ReturnType<typeof catalog>, row: number, k: number, visible: (r: number) => boolean): string[] {
  const scored: Array<[number, number]> = [];
  for (let j = 0; j < c.ids.length; j++) {
    if (j === row || !visible(j)) continue;
    let s = 0;
    for (let d = 0; d < c.dims; d++) s += c.data[row * c.dims + d] * c.data[j * c.dims + d];
    scored.push([s, j]);
  }
  scored.sort((a, b) => b[0] - a[0]);
  return scored.slice(0, k).map(([, j]) => c.ids[j]);
}

t.test('up to the exact bound: the exact nearest, never itself nor a hidden product', async (t) => {
  const c = catalog(3000, 16, 40);
  const visible = (r: number) => r % 10 !== 3;
  const lists = await neighbourLists({ ...c, visible }, 24);
  t.equal(lists.length, c.ids.length, 'one list per product, hidden ones too (they may be asked about)');
  for (const row of [0, 1, 3, 777, 2999]) {
    t.same(new Set(lists[row].ids), new Set(exact(c, row, 24, visible)), `p${row}`);
    t.notOk(lists[row].ids.includes(`p${row}`));
  }
  t.ok(
    lists.every((l) => l.ids.every((id) => Number(id.slice(1)) % 10 !== 3)),
    'no hidden product listed',
  );
});

t.test('past the exact bound: an inverted file, most of the exact nearest found', async (t) => {
  const n = 6000;
  const c = catalog(n, 16, 150, 0.8);
  const shares: number[] = [];
  const lists = await neighbourLists({ ...c, visible: () => true }, 24, async (s) => void shares.push(s), { exactMax: 1000 });
  t.equal(lists.length, n);
  let found = 0;
  let asked = 0;
  for (let row = 0; row < n; row += 29) {
    const truth = new Set(exact(c, row, 24, () => true));
    found += lists[row].ids.filter((id) => truth.has(id)).length;
    asked += truth.size;
    t.notOk(lists[row].ids.includes(c.ids[row]));
  }
  const recall = found / asked;
  t.comment(`recall@24 on ${Math.ceil(n / 29)} products: ${recall.toFixed(3)}`);
  t.ok(recall >= 0.9, `recall ${recall.toFixed(3)}`);
  t.ok(shares.length > 2 && shares.every((s, i) => s >= (shares[i - 1] ?? 0) && s <= 1), 'progress rises within 0..1');
});

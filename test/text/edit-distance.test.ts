import t from 'tap';
import { editDistance } from '../../shared/text/typo.js';

/** The whole optimal-string-alignment table, no early exit: the reference. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

t.test('edits counted: substitution, insertion, deletion, a swap of neighbours as one', async (t) => {
  t.equal(editDistance('laptop', 'laptop', 2), 0);
  t.equal(editDistance('labtop', 'laptop', 2), 1);
  t.equal(editDistance('lapotp', 'laptop', 2), 1, 'a swap of neighbours is one edit');
  t.equal(editDistance('laptp', 'laptop', 2), 1);
  t.equal(editDistance('', 'abc', 3), 3);
  t.equal(editDistance('abc', '', 3), 3);
  t.equal(editDistance('سماعه', 'سماعة', 1), 1, 'Arabic letters as UTF-16 units');
});

t.test('past the bound it answers more than the bound (max + 1 once a whole row is past it)', async (t) => {
  t.equal(editDistance('headphones', 'hdphns', 1), 2, 'length gap alone over the bound');
  t.equal(editDistance('camera', 'zzzzzz', 2), 3);
});

t.test('equals the whole table within the bound and answers past it beyond, over random pairs, calls reusing its rows', async (t) => {
  let seed = 11;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const word = () => Array.from({ length: Math.floor(rand() * 14) }, () => 'abcde'[Math.floor(rand() * 5)]).join('');
  const mutate = (w: string) => {
    const i = Math.floor(rand() * (w.length + 1));
    const c = 'abcde'[Math.floor(rand() * 5)];
    const r = rand();
    return r < 0.3
      ? w.slice(0, i) + c + w.slice(i + 1)
      : r < 0.6
        ? w.slice(0, i) + c + w.slice(i)
        : r < 0.8
          ? w.slice(0, i) + w.slice(i + 1)
          : w.slice(0, i) + w.slice(i + 1, i + 2) + w.slice(i, i + 1) + w.slice(i + 2);
  };
  let mismatches = 0;
  let within = 0;
  for (let k = 0; k < 3000; k++) {
    const a = word();
    // Half the pairs one or two edits apart, as a typo and its term are; a few long against short.
    const b = rand() < 0.5 ? mutate(mutate(a)) : rand() < 0.04 ? word().repeat(12) : word();
    const max = Math.floor(rand() * 4);
    const want = reference(a, b);
    const got = editDistance(a, b, max);
    if (want <= max) within++;
    if (want <= max ? got !== want : got <= max) mismatches++;
  }
  t.equal(mismatches, 0);
  t.ok(within > 800, `pairs within their bound: ${within}`);
});

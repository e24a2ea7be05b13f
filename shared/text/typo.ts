/** Typesense-like typo budget: none below 4 characters, 1 from 4, 2 from 8. */
export function typoBudget(token: string): number {
  return token.length >= 8 ? 2 : token.length >= 4 ? 1 : 0;
}

/** Three rows of the distance table, reused by every call (grown when a longer word comes). */
let rows = new Int32Array(3 * 64);

/** Optimal-string-alignment distance, giving up (returning max + 1) once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  const width = n + 1;
  if (rows.length < 3 * width) rows = new Int32Array(3 * width * 2);
  // prev2, prev and cur are row offsets into `rows`, rotated after each row.
  let prev2 = 0;
  let prev = width;
  let cur = 2 * width;
  for (let j = 0; j <= n; j++) {
    rows[prev2 + j] = 0;
    rows[prev + j] = j;
  }
  for (let i = 1; i <= a.length; i++) {
    rows[cur] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(rows[prev + j] + 1, rows[cur + j - 1] + 1, rows[prev + j - 1] + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, rows[prev2 + j - 2] + 1);
      rows[cur + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return rows[prev + n];
}

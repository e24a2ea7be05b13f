import type { ProductIn } from '../catalog/product-in.js';
import type { Judgments } from './metrics.js';
import { SYSTEMS, type QueryLists } from './report.js';

/** A product as one line: name cut to 90 chars and its first category's last label, if it has one. */
function describe(p: ProductIn | undefined): string {
  if (!p) return '(not in the catalog)';
  const path = p.categories?.[0]?.path;
  return `${(p.name.en ?? '').slice(0, 90)}${path ? ` [${path[path.length - 1].en}]` : ''}`;
}

/** --show: every system's top k with grades ("?" = unjudged), then the best-graded products our top k missed. */
export function formatShow(collection: string, q: QueryLists, products: Map<string, ProductIn>, k: number): string {
  const grade = (judged: Judgments, id: string) => judged.get(id) ?? '?';
  const lines = [`\n== [${collection}] ${q.query}`];
  for (const s of SYSTEMS) {
    lines.push(`  ${s}:`);
    q.lists[s].slice(0, k).forEach((id, i) => lines.push(`    ${String(i + 1).padStart(2)}. (${grade(q.judged, id)}) ${describe(products.get(id))}`));
  }
  const top = new Set(q.lists.ours.slice(0, k));
  const missed = [...q.judged]
    .filter(([id, g]) => g >= 2 && !top.has(id))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  for (const [id, g] of missed) lines.push(`  missed (${g}) ${describe(products.get(id))}`);
  return `${lines.join('\n')}\n`;
}

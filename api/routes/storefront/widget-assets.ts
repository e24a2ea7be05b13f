import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface Asset {
  body: Buffer;
  gzip: Buffer;
  /** Strong ETags, one per representation: the plain bytes and the gzip bytes differ. */
  etag: string;
  gzipEtag: string;
  type: string;
}

/** The repository root: the nearest folder above this file with a package.json (the same from api/ and from dist/api/). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const DIR = process.env.WIDGET_DIR ?? join(repoRoot(), 'dist', 'widget');
const cache = new Map<string, { mtime: number; asset: Asset }>();

/**
 * A built widget file (npm run build:widget writes dist/widget/), with its gzip form and ETag made
 * once per build; null when the widget was not built. A rebuild is picked up on the next request.
 */
export function widgetAsset(name: 'widget.js' | 'widget.css'): Asset | null {
  const file = join(DIR, name);
  let mtime: number;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return null;
  }
  const hit = cache.get(name);
  if (hit && hit.mtime === mtime) return hit.asset;
  const body = readFileSync(file);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const asset: Asset = {
    body,
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${hash}"`,
    gzipEtag: `"${hash}-gzip"`,
    type: name.endsWith('.js') ? 'application/javascript; charset=utf-8' : 'text/css; charset=utf-8',
  };
  cache.set(name, { mtime, asset });
  return asset;
}

/** The build's version (the manifest hash), for cache-busting URLs; null when not built. */
export function widgetVersion(): string | null {
  try {
    return (JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { hash: string }).hash;
  } catch {
    return null;
  }
}

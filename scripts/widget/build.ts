import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the API reads the bundle from (api/routes/storefront/widget-assets.ts). */
export const WIDGET_OUT = join(ROOT, 'dist', 'widget');
const SOURCE = join(ROOT, 'shared', 'storefront', 'widget');

export interface WidgetBuild {
  bytes: number;
  gzipBytes: number;
  cssBytes: number;
  hash: string;
}

/**
 * Bundles the widget (InstantSearch.js, Autocomplete.js, algoliasearch lite, search-insights)
 * into one minified IIFE plus its CSS, in dist/widget/. The API serves them at /widget.js and
 * /widget.css; the bundle is built, never committed.
 */
export async function buildWidget(outDir = WIDGET_OUT): Promise<WidgetBuild> {
  await mkdir(outDir, { recursive: true });
  const js = await build({
    entryPoints: [join(SOURCE, 'widget.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2019'],
    write: false,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const css = await build({ entryPoints: [join(SOURCE, 'widget.css')], bundle: true, minify: true, write: false, logLevel: 'error' });
  const code = js.outputFiles[0].contents;
  const style = css.outputFiles[0].contents;
  const hash = createHash('sha256').update(code).update(style).digest('hex').slice(0, 12);
  await writeFile(join(outDir, 'widget.js'), code);
  await writeFile(join(outDir, 'widget.css'), style);
  const result: WidgetBuild = { bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, cssBytes: style.length, hash };
  await writeFile(join(outDir, 'manifest.json'), JSON.stringify(result));
  return result;
}

/** The last build's manifest, or null when the widget was never built. */
export async function builtWidget(outDir = WIDGET_OUT): Promise<WidgetBuild | null> {
  try {
    return JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as WidgetBuild;
  } catch {
    return null;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const r = await buildWidget();
  process.stdout.write(
    `widget built in ${Date.now() - started} ms: widget.js ${(r.bytes / 1024).toFixed(1)} KiB (${(r.gzipBytes / 1024).toFixed(1)} KiB gzip), widget.css ${(r.cssBytes / 1024).toFixed(1)} KiB, ${r.hash}\n`,
  );
}

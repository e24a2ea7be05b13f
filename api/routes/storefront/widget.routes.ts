import type { Context } from 'koa';
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import { int, queryInt } from '../../http/schemas.js';
import { AppError } from '../../../shared/platform/errors.js';
import { widgetAsset, widgetVersion } from './widget-assets.js';
import { demoPage } from './demo-page.js';

const Version = z.object({ v: z.string().max(64).optional().describe('the build hash: with the current one the answer is cacheable for a year') });
export const DemoQuery = z.strictObject({
  app: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/)
    .describe('store (tenant) id'),
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/)
    .describe("a public key whose allowed_origins hold this server's origin"),
  lang: z.enum(['en', 'ar']).default('en'),
  hits: queryInt(int().min(1).max(48).default(12)),
});

/**
 * Sends a built asset: gzip when Accept-Encoding prefers it (q=0 refuses it, RFC 9110), each
 * encoding with its own ETag (Vary: Accept-Encoding) and 304 on a match, long caching for the versioned URL.
 */
function send(ctx: Context, name: 'widget.js' | 'widget.css', v: string | undefined) {
  const asset = widgetAsset(name);
  if (!asset) throw new AppError('widget_not_built', 503, 'the widget is not built: run npm run build:widget');
  const current = widgetVersion();
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  const etag = gzip ? asset.gzipEtag : asset.etag;
  ctx.set('Cache-Control', v && v === current ? 'public, max-age=31536000, immutable' : 'public, max-age=300, stale-while-revalidate=86400');
  ctx.set('ETag', etag);
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.vary('Accept-Encoding');
  ctx.type = asset.type;
  if (matches(ctx.get('if-none-match'), etag)) {
    ctx.status = 304;
    return;
  }
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzip ? asset.gzip : asset.body;
}

/** If-None-Match: `*` or a list of ETags, compared weakly (a W/ prefix is ignored, as RFC 9110 says for this header). */
function matches(header: string, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** The drop-in widget (script and CSS) and a demo storefront page using it. No credential: the page's key is public. */
export function widgetRoutes(): RouteSpec[] {
  return [
    /** The widget bundle (InstantSearch.js + Autocomplete.js against this service); cached 5 minutes, a year with ?v=<build hash>. */
    defineRoute({
      method: 'get',
      path: '/widget.js',
      tag: 'storefront',
      summary: 'Drop-in search widget (script)',
      auth: null,
      query: Version,
      responses: { 200: { description: 'JavaScript' }, 304: { description: 'not modified' } },
      handle: (ctx, { query }) => send(ctx, 'widget.js', query.v),
    }),
    /** The widget's styles (loaded by widget.js from beside itself). */
    defineRoute({
      method: 'get',
      path: '/widget.css',
      tag: 'storefront',
      summary: 'Drop-in search widget (styles)',
      auth: null,
      query: Version,
      responses: { 200: { description: 'CSS' }, 304: { description: 'not modified' } },
      handle: (ctx, { query }) => send(ctx, 'widget.css', query.v),
    }),
    /** A demo storefront page showing the widget for a store and public key (npm run demo prints its URL). */
    defineRoute({
      method: 'get',
      path: '/demo',
      tag: 'storefront',
      summary: 'Demo storefront page with the widget',
      auth: null,
      query: DemoQuery,
      responses: { 200: { description: 'HTML page' } },
      handle(ctx, { query }) {
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-store');
        ctx.body = demoPage({ ...query, version: widgetVersion() });
      },
    }),
  ];
}

import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';
import { startReindex } from '../../../shared/catalog/reindex.js';
import { BUILTIN_FACETS } from '../../../shared/search/facets.js';
import { AttributeInfo, AttributeMapping, AttributeMappingIn } from './attributes.schema.js';

/** Names the service's own facets and filters use: a mapped attribute of that name would stand beside them under the same name. */
const RESERVED = new Set<string>(BUILTIN_FACETS);

const READ = { scope: 'catalog:read' as const };
const WRITE = { scope: 'catalog:write' as const };

/** Attributes found in the catalog and the attribute mapping (spec 4.5). */
export function attributeRoutes(deps: Deps): RouteSpec[] {
  const mappings = deps.repos.mappings;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/attributes',
      tag: 'catalog',
      summary: 'Raw attributes found in the catalog',
      auth: READ,
      responses: { 200: { description: 'attributes with counts and samples', schema: AttributeInfo.array() } },
      async handle(ctx) {
        const tenantId = ctx.state.principal.tenantId;
        const [found, mapping] = await Promise.all([mappings.discovered(tenantId), mappings.get(tenantId)]);
        const byRaw = new Map(mapping.items.map((i) => [i.raw_name.toLowerCase(), i]));
        ctx.body = found.map((a) => {
          const m = byRaw.get(a.raw_name.toLowerCase());
          return { ...a, canonical_name: m?.canonical_name ?? null, facet: m ? (m.facet ?? true) : false, unit: m?.unit ?? null };
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/attributes/mapping',
      tag: 'catalog',
      summary: 'The attribute mapping',
      auth: READ,
      responses: { 200: { description: 'mapping', schema: AttributeMapping } },
      async handle(ctx) {
        const m = await mappings.get(ctx.state.principal.tenantId);
        ctx.body = { items: m.items, updated_at: m.updated_at ? m.updated_at.toISOString() : null };
      },
    }),
    /** Replaces the whole mapping and starts (or joins) a full reindex; its job id is in X-Job-Id. Idempotency-Key honoured. */
    defineRoute({
      method: 'put',
      path: '/v1/attributes/mapping',
      tag: 'catalog',
      summary: 'Replace the attribute mapping',
      auth: WRITE,
      idempotent: true,
      body: AttributeMappingIn,
      responses: {
        200: { description: 'the new mapping', schema: AttributeMapping, headers: { 'X-Job-Id': 'the id of the reindex job the change started (or joined)' } },
      },
      async handle(ctx, { body }) {
        const dupes = body.items.map((i) => i.raw_name.toLowerCase()).filter((n, i, all) => all.indexOf(n) !== i);
        if (dupes.length) {
          throw new AppError('validation_failed', 400, `raw_name listed twice: ${dupes[0]}`, [
            { in: 'body', field: 'items', code: 'duplicate', message: `raw_name ${dupes[0]} appears twice` },
          ]);
        }
        const reserved = body.items.findIndex((i) => RESERVED.has(i.canonical_name.toLowerCase()));
        // An object's built-in property (`__proto__`, `constructor`, `toString`...) cannot name a facet: facets are
        // looked up by name in plain objects along the way (`__proto__` would be a search document's prototype).
        const builtIn = body.items.findIndex((i) => i.canonical_name in Object.prototype);
        if (builtIn >= 0) {
          const name = body.items[builtIn].canonical_name;
          throw new AppError('validation_failed', 400, `canonical_name ${name} is reserved`, [
            {
              in: 'body',
              field: `items.${builtIn}.canonical_name`,
              code: 'reserved_name',
              message: `${name} cannot name a facet (a built-in property of objects)`,
            },
          ]);
        }
        if (reserved >= 0) {
          const name = body.items[reserved].canonical_name;
          throw new AppError('validation_failed', 400, `canonical_name ${name} is a built-in facet and filter`, [
            { in: 'body', field: `items.${reserved}.canonical_name`, code: 'reserved_name', message: `${name} is built in (${BUILTIN_FACETS.join(', ')})` },
          ]);
        }
        const tenantId = ctx.state.principal.tenantId;
        const saved = await mappings.put(tenantId, body.items);
        const { job } = await startReindex(deps, tenantId, 'full', 'attribute mapping changed');
        ctx.set('X-Job-Id', job.id);
        ctx.body = { items: saved.items, updated_at: saved.updated_at.toISOString() };
      },
    }),
  ];
}

/**
 * Scope names. A key carries a list of these; a route names the one it needs.
 * `admin` (key management, dashboard sessions) is never a default.
 */
export const SCOPES = [
  'search',
  'events',
  'catalog:read',
  'catalog:write',
  'synonyms:read',
  'synonyms:write',
  'translations:read',
  'translations:write',
  'rules:read',
  'rules:write',
  'experiments:read',
  'experiments:write',
  'billing',
  'usage',
  'jobs',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Shopper-facing scopes: the only ones a public key may hold. */
export const PUBLIC_SCOPES: readonly Scope[] = ['search', 'events'];
export const DEFAULT_PUBLIC_SCOPES: Scope[] = ['search', 'events'];
export const DEFAULT_SECRET_SCOPES: Scope[] = SCOPES.filter((s) => s !== 'admin');

export const SCOPE_DOCS: Record<Scope, string> = {
  search: 'search, suggest and recommend',
  events: 'send shopper events (clicks, views, carts, purchases)',
  'catalog:read': 'read products, attributes and the attribute mapping',
  'catalog:write': 'batch upsert/delete products, change the mapping, reindex',
  'synonyms:read': 'read synonyms, suggestions and exports',
  'synonyms:write': 'create, change, import synonyms and decide suggestions',
  'translations:read': 'read translation status, review queue, exports, approved feed',
  'translations:write': 'backfill, review, glossary and acknowledge write-back',
  'rules:read': 'read merchandising rules and export them',
  'rules:write': 'create, change, delete and import merchandising rules',
  'experiments:read': 'read experiments and their results',
  'experiments:write': 'create, change, start, stop and delete experiments',
  billing: 'subscription, checkout, plan changes, invoices',
  usage: 'read usage against the plan',
  jobs: 'read and cancel jobs',
  admin: 'manage API keys and mint dashboard sessions',
};

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { notFound } from '../../../shared/platform/errors.js';
import type { ApiKeyRow } from '../../../shared/access/keys.repo.js';
import { Deleted } from '../../http/schemas.js';
import { ApiKeyCreated, ApiKeyOut, CreateKey, KeyParams, PatchKey, RotateKey } from './keys.schema.js';
import { assertLive, assertRotatable, checkExpiry, resolveOrigins, resolveScopes } from '../../../shared/access/key-rules.js';

const ADMIN = { scope: 'admin' as const, kinds: ['secret' as const, 'session' as const] };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toKeyOut(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes,
    allowed_origins: row.allowed_origins,
    created_at: row.created_at.toISOString(),
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
  };
}

/** API key management (spec 4.1); every route needs the admin scope or a dashboard session. */
export function keyRoutes(deps: Deps): RouteSpec[] {
  const keys = deps.repos.keys;
  const load = async (tenantId: string, id: string) => (await keys.find(tenantId, id)) ?? Promise.reject(notFound('key'));
  return [
    defineRoute({
      method: 'get',
      path: '/v1/keys',
      tag: 'keys',
      summary: 'List API keys (never the keys themselves)',
      auth: ADMIN,
      responses: { 200: { description: 'keys', schema: ApiKeyOut.array() } },
      async handle(ctx) {
        ctx.body = (await keys.list(ctx.state.principal.tenantId)).map(toKeyOut);
      },
    }),
    /** Creates a key; the full key is in this response only. Idempotency-Key honoured (the kept answer, key included, is sealed). */
    defineRoute({
      method: 'post',
      path: '/v1/keys',
      tag: 'keys',
      summary: 'Create an API key',
      auth: ADMIN,
      idempotent: true,
      body: CreateKey,
      responses: { 201: { description: 'created; `key` is shown only now', schema: ApiKeyCreated } },
      async handle(ctx, { body }) {
        const scopes = resolveScopes(body.kind, body.scopes);
        const allowedOrigins = resolveOrigins(body.kind, body.allowed_origins);
        const expiresAt = checkExpiry(body.expires_at);
        const { row, key } = await keys.create(ctx.state.principal.tenantId, { name: body.name, kind: body.kind, scopes, allowedOrigins, expiresAt });
        // Drops a remembered "unknown" for this hash on every process, so the new key works at once everywhere.
        await deps.auth.invalidate(row.hash);
        ctx.status = 201;
        ctx.body = { ...toKeyOut(row), key };
      },
    }),
    /** Changes name, scopes or origins; every API process drops its cached copy, and its sessions' (they hold its scopes), at once. */
    defineRoute({
      method: 'patch',
      path: '/v1/keys/{key_id}',
      tag: 'keys',
      summary: 'Update an API key',
      auth: ADMIN,
      params: KeyParams,
      body: PatchKey,
      responses: { 200: { description: 'updated key', schema: ApiKeyOut } },
      async handle(ctx, { params, body }) {
        const tenantId = ctx.state.principal.tenantId;
        const row = await load(tenantId, params.key_id);
        assertLive(row);
        const patch: Partial<ApiKeyRow> = {};
        if (body.name != null) patch.name = body.name;
        if (body.scopes != null) patch.scopes = resolveScopes(row.kind, body.scopes);
        if (body.allowed_origins != null) patch.allowed_origins = resolveOrigins(row.kind, body.allowed_origins);
        const updated = Object.keys(patch).length ? await keys.update(tenantId, row.id, patch) : undefined;
        // Revoked or rotated since it was read: nothing was changed, and the 409 says why.
        if (Object.keys(patch).length && !updated) assertLive(await load(tenantId, row.id));
        // The key's sessions hold its current scopes: a scope change drops them from every cache too.
        await Promise.all([row.hash, ...(updated?.sessionHashes ?? [])].map((hash) => deps.auth.invalidate(hash)));
        ctx.body = toKeyOut(updated?.row ?? row);
      },
    }),
    /** Revokes a key now, on every API process, with every dashboard session it minted (and theirs); revoking twice answers the same. */
    defineRoute({
      method: 'delete',
      path: '/v1/keys/{key_id}',
      tag: 'keys',
      summary: 'Revoke an API key',
      auth: ADMIN,
      params: KeyParams,
      responses: { 200: { description: 'revoked', schema: Deleted } },
      async handle(ctx, { params }) {
        const revoked = await keys.revoke(ctx.state.principal.tenantId, params.key_id);
        if (!revoked) throw notFound('key');
        await Promise.all(revoked.hashes.map((hash) => deps.auth.invalidate(hash)));
        ctx.body = { deleted: true, id: revoked.row.id };
      },
    }),
    /** Issues a successor key; the old one keeps working for grace_hours, then stops. Idempotency-Key honoured (the kept answer, new key included, is sealed). */
    defineRoute({
      method: 'post',
      path: '/v1/keys/{key_id}/rotate',
      tag: 'keys',
      summary: 'Rotate an API key',
      auth: ADMIN,
      idempotent: true,
      params: KeyParams,
      body: RotateKey,
      responses: { 200: { description: 'the new key, shown only now', schema: ApiKeyCreated } },
      async handle(ctx, { params, body }) {
        const row = await load(ctx.state.principal.tenantId, params.key_id);
        assertRotatable(row);
        const { row: created, key, sessionHashes } = await keys.rotate(row, body.grace_hours);
        await Promise.all([row.hash, created.hash, ...sessionHashes].map((hash) => deps.auth.invalidate(hash)));
        ctx.body = { ...toKeyOut(created), key };
      },
    }),
  ];
}

import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { notFound } from '../../../shared/platform/errors.js';
import { Deleted, Timestamp } from '../../http/schemas.js';

const ADMIN = { scope: 'admin' as const, kinds: ['secret' as const, 'session' as const] };

const CreateSession = z.strictObject({
  ttl_hours: z
    .number()
    .positive()
    .max(24 * 30)
    .optional(),
});
const SessionOut = z.object({ id: z.string(), token: z.string().describe('send as "Authorization: Bearer <token>"; shown only once'), expires_at: Timestamp });

const WhoAmI = z.object({
  tenant_id: z.string(),
  kind: z.enum(['public', 'secret', 'session']),
  id: z.string(),
  scopes: z.array(z.string()),
  expires_at: Timestamp.nullable(),
});

/** Dashboard sessions: expiring, revocable admin tokens for the store's dashboard; and credential introspection. */
export function sessionRoutes(deps: Deps): RouteSpec[] {
  return [
    /** Who the calling credential is (answered from the auth cache: no database read). Any valid key or session. */
    defineRoute({
      method: 'get',
      path: '/v1/auth/whoami',
      tag: 'sessions',
      summary: 'Describe the calling key or session',
      auth: { scope: null },
      responses: { 200: { description: 'the credential', schema: WhoAmI } },
      handle(ctx) {
        const p = ctx.state.principal;
        ctx.body = {
          tenant_id: p.tenantId,
          kind: p.kind,
          id: p.id,
          scopes: [...p.scopes],
          expires_at: p.expiresAt ? new Date(p.expiresAt).toISOString() : null,
        };
      },
    }),
    /** Mints a session token (shown once), recording the key or session that minted it; it never outlives that parent (expires_at is capped at the parent's). No idempotency: each call is a new session. */
    defineRoute({
      method: 'post',
      path: '/v1/sessions',
      tag: 'sessions',
      summary: 'Create a dashboard session',
      auth: ADMIN,
      body: CreateSession,
      responses: {
        201: {
          description:
            "session token; the session holds the scopes of the key at the root of its lineage as that key holds them now (every scope for a CLI session), and ends with that key's revocation",
          schema: SessionOut,
        },
      },
      async handle(ctx, { body }) {
        const ttl = body.ttl_hours ?? deps.config.sessionTtlHours;
        const p = ctx.state.principal;
        const parent = p.kind === 'session' ? { sessionId: p.id } : { keyId: p.id };
        const { row, token } = await deps.repos.sessions.create(p.tenantId, parent, `${p.kind}:${p.id}`, ttl);
        await deps.auth.invalidate(row.hash);
        ctx.status = 201;
        ctx.body = { id: row.id, token, expires_at: row.expires_at.toISOString() };
      },
    }),
    /** Revokes a session, and every session minted from it, on every API process at once. */
    defineRoute({
      method: 'delete',
      path: '/v1/sessions/{session_id}',
      tag: 'sessions',
      summary: 'Revoke a dashboard session',
      auth: ADMIN,
      params: z.object({ session_id: z.string().max(64) }),
      responses: { 200: { description: 'revoked', schema: Deleted } },
      async handle(ctx, { params }) {
        const revoked = await deps.repos.sessions.revoke(ctx.state.principal.tenantId, params.session_id);
        if (!revoked) throw notFound('session');
        await Promise.all(revoked.hashes.map((hash) => deps.auth.invalidate(hash)));
        ctx.body = { deleted: true, id: revoked.row.id };
      },
    }),
  ];
}

import type { Context, Middleware, Next } from 'koa';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import type { Deps } from '../../shared/deps.js';
import { AppError } from '../../shared/platform/errors.js';
import { auth, credentialOf } from './middleware/auth.js';

export const DASHBOARD_PATH = '/admin/queues';
const COOKIE = 'pss_queue_dashboard';

/** The credential: `Authorization: Bearer`, then the cookie a first visit with `?token=` set. */
function dashboardCredential(ctx: Context): string | null {
  return credentialOf(ctx) ?? ctx.cookies.get(COOKIE) ?? (typeof ctx.query.token === 'string' ? ctx.query.token : null);
}

/**
 * Bull Board at /admin/queues: an admin key or dashboard session of an operator store
 * (OPERATOR_TENANT_IDS; the board shows every store's jobs), read-only unless
 * QUEUE_DASHBOARD_WRITE=true. A browser opens `/admin/queues?token=<key or session>` once: the
 * credential moves to an HttpOnly cookie scoped to the board's path and the URL drops it.
 */
export function queueDashboard(deps: Deps, queueNames: string[]): Middleware {
  const check = auth(deps, { scope: 'admin', kinds: ['secret', 'session'], credential: dashboardCredential });
  const readOnly = !deps.config.ops.queueDashboardWrite;
  let board: Middleware | null = null;
  const mount = () => {
    const adapter = new KoaAdapter();
    adapter.setBasePath(DASHBOARD_PATH);
    createBullBoard({
      queues: queueNames.map((q) => new BullMQAdapter(deps.queues.get(q), { readOnlyMode: readOnly, allowRetries: !readOnly })),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'Product search queues' } },
    });
    return adapter.registerPlugin() as unknown as Middleware;
  };
  // Every other request passes straight on (no async function, no promise of its own).
  return (ctx: Context, next: Next) => (ctx.path !== DASHBOARD_PATH && !ctx.path.startsWith(`${DASHBOARD_PATH}/`) ? next() : serve(ctx, next));
  async function serve(ctx: Context, next: Next) {
    await check(ctx, async () => undefined);
    if (!deps.config.ops.operatorTenantIds.includes(ctx.state.principal.tenantId)) {
      throw new AppError('operator_only', 403, "the queue dashboard shows every store's jobs: only operator stores (OPERATOR_TENANT_IDS) may open it");
    }
    if (readOnly && !['GET', 'HEAD'].includes(ctx.method)) {
      throw new AppError('dashboard_read_only', 403, 'the queue dashboard is read-only (QUEUE_DASHBOARD_WRITE=true allows changes)');
    }
    if (typeof ctx.query.token === 'string' && !credentialOf(ctx)) {
      ctx.cookies.set(COOKIE, ctx.query.token, { httpOnly: true, sameSite: 'strict', path: DASHBOARD_PATH, secure: ctx.secure, overwrite: true });
      ctx.redirect(ctx.path);
      return;
    }
    board ??= mount();
    await board(ctx, next);
  }
}

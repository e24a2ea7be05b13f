import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError } from '../../../shared/platform/errors.js';

const Health = z.object({ status: z.literal('ok') });
const Ready = z.object({ status: z.literal('ready'), postgres: z.literal('ok'), redis: z.literal('ok') });

/** Liveness and readiness; no credential needed. */
export function healthRoutes(deps: Deps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      tag: 'health',
      summary: 'Process is up',
      auth: null,
      responses: { 200: { description: 'up', schema: Health } },
      handle(ctx) {
        ctx.body = { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      tag: 'health',
      summary: 'Postgres and Redis answer',
      auth: null,
      responses: { 200: { description: 'ready', schema: Ready } },
      async handle(ctx) {
        const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error('timeout')), 2000).unref())]);
        const [pgOk, redisOk] = await Promise.all([
          within(deps.db.raw('select 1')).then(
            () => true,
            () => false,
          ),
          within(deps.redis.ping()).then(
            () => true,
            () => false,
          ),
        ]);
        if (!pgOk || !redisOk) {
          throw new AppError('not_ready', 503, 'a dependency does not answer', { postgres: pgOk ? 'ok' : 'down', redis: redisOk ? 'ok' : 'down' });
        }
        ctx.body = { status: 'ready', postgres: 'ok', redis: 'ok' };
      },
    }),
  ];
}

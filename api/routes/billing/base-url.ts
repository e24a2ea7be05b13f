import type { Context } from 'koa';
import type { Deps } from '../../../shared/deps.js';

/** Where the service is reached from outside: PUBLIC_BASE_URL, else the request's own origin. */
export const baseUrl = (deps: Deps, ctx: Context) => deps.config.billing.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;

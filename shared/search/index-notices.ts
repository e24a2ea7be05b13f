import type { Redis } from 'ioredis';
import type { TenantContexts } from './tenant-context.js';

export const indexChangedChannel = (prefix: string) => `${prefix}:index-changed`;

/** Drops this process's cached results of the tenant at once and tells every other API process. */
export async function noticeIndexChanged(deps: { redis: Redis; config: { queuePrefix: string }; contexts: TenantContexts }, tenantId: string): Promise<void> {
  deps.contexts.results.clear(tenantId);
  deps.contexts.previews.clear(tenantId);
  await deps.redis.publish(indexChangedChannel(deps.config.queuePrefix), tenantId);
}

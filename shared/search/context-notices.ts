import type { Redis } from 'ioredis';

export const contextChangedChannel = (prefix: string) => `${prefix}:context-changed`;

/**
 * Tells every API process that what a tenant's search context is built from (its attribute
 * mapping: facet and filter names, the colour attribute) now serves: each rebuilds the context
 * in the background and then drops the results made with the old one.
 */
export async function noticeContextChanged(deps: { redis: Redis; config: { queuePrefix: string } }, tenantId: string): Promise<void> {
  await deps.redis.publish(contextChangedChannel(deps.config.queuePrefix), tenantId);
}

import type { Redis } from 'ioredis';

export const vocabularyChangedChannel = (prefix: string) => `${prefix}:vocabulary-changed`;

/** Tells every API process that a tenant's vocabulary and suggestion dictionary were rebuilt. */
export async function noticeVocabularyChanged(deps: { redis: Redis; config: { queuePrefix: string } }, tenantId: string): Promise<void> {
  await deps.redis.publish(vocabularyChangedChannel(deps.config.queuePrefix), tenantId);
}

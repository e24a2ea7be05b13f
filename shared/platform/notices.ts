import type { Redis } from 'ioredis';
import { watchRedis } from './redis-link.js';

/**
 * What a process tells the others about a tenant (message: the tenant id, or `*` for all):
 * - index: its search index changed (drop cached results and previews);
 * - context: what its search context is built from now serves (a new attribute mapping);
 * - vocabulary: its vocabulary and suggestion dictionary were rebuilt;
 * - synonyms: its synonym rules changed (`*`: the global rules);
 * - rules: its merchandising rules changed;
 * - experiments: an experiment of it was started, stopped or changed;
 * - vectors: its vectors changed (a batch embedded, a generation activated);
 * - signals: its co-views, trends and click statistics were recomputed (learn-events);
 * - subscription: its subscription (plan, status, limits) changed.
 */
export const NOTICE_KINDS = ['index', 'context', 'vocabulary', 'synonyms', 'rules', 'experiments', 'vectors', 'signals', 'subscription'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

type Handler = (tenantId: string) => void;

/**
 * One typed publish/subscribe channel map over Redis. `publish` runs this process's handlers at
 * once (the next request here sees the change), then tells the other processes (its own message
 * comes back too; handlers only drop or reload, so a second run is harmless). A notice Redis does
 * not take never fails the write that sent it (already committed): processes that missed notices
 * while their subscription was down treat every tenant as changed when it comes back, and cached
 * entries age out meanwhile.
 */
export class Notices {
  private handlers = new Map<NoticeKind, Handler[]>();

  constructor(
    private redis: Pick<Redis, 'publish'>,
    private prefix: string,
  ) {}

  channel(kind: NoticeKind): string {
    return `${this.prefix}:${kind}-changed`;
  }

  on(kind: NoticeKind, handler: Handler): void {
    this.handlers.set(kind, [...(this.handlers.get(kind) ?? []), handler]);
  }

  async publish(kind: NoticeKind, tenantId: string): Promise<void> {
    this.dispatch(kind, tenantId);
    await this.redis.publish(this.channel(kind), tenantId).catch(() => undefined);
  }

  /** Follows every channel on a dedicated subscriber connection. */
  async listen(sub: Redis): Promise<void> {
    watchRedis(sub, () => NOTICE_KINDS.forEach((kind) => this.dispatch(kind, '*')));
    const byChannel = new Map(NOTICE_KINDS.map((k) => [this.channel(k), k]));
    sub.on('message', (channel: string, tenantId: string) => {
      const kind = byChannel.get(channel);
      if (kind) this.dispatch(kind, tenantId);
    });
    await sub.subscribe(...byChannel.keys());
  }

  private dispatch(kind: NoticeKind, tenantId: string): void {
    for (const handler of this.handlers.get(kind) ?? []) handler(tenantId);
  }
}

import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.js';
import { AppError } from '../platform/errors.js';
import { hashKey, looksLikeCredential } from './key-format.js';
import type { ApiKeyRow } from './keys.repo.js';
import type { SessionRow } from './sessions.repo.js';
import { SCOPES } from './scopes.js';
import { watchRedis, type RedisLink } from '../platform/redis-link.js';

export type PrincipalKind = 'public' | 'secret' | 'session';

/** Who is calling: resolved from a key or a dashboard session, cached in process. */
export interface Principal {
  tenantId: string;
  kind: PrincipalKind;
  /** Key id or session id; rate limits and last-used times hang off it. */
  id: string;
  scopes: ReadonlySet<string>;
  allowedOrigins: readonly string[];
  expiresAt: number | null;
  revokedAt: number | null;
}

interface Lookup {
  keyByHash(hash: string): Promise<ApiKeyRow | undefined>;
  sessionByHash(hash: string): Promise<SessionRow | undefined>;
  touchLastUsed(times: Map<string, number>): Promise<void>;
}

interface CacheEntry {
  principal: Principal | null;
  loadedAt: number;
}

const ALL_SCOPES = new Set<string>(SCOPES);
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 100_000;
/** While invalidations cannot arrive (the subscription is down), a cached credential is re-read this often. */
const UNWATCHED_TTL_MS = 1_000;
/** How often invalidations that could not be published are tried again. */
const REPUBLISH_EVERY_MS = 1_000;

/**
 * Resolves credentials without a database query per request: principals are cached for
 * `ttlMs` and dropped on every process as soon as a key changes (Redis pub/sub).
 */
export class Authenticator {
  private cache = new Map<string, CacheEntry>();
  private epoch = 0;
  private lastUsed = new Map<string, number>();
  private flushTimer?: NodeJS.Timeout;
  private link?: RedisLink;
  /** Invalidations not yet published (Redis down when they happened), sent again until they go. */
  private unsent = new Set<string>();
  private republishTimer?: NodeJS.Timeout;

  constructor(
    private lookup: Lookup,
    private pub: Redis,
    private channel: string,
    private ttlMs: number,
    private logger: Logger,
  ) {}

  /**
   * Subscribes to invalidations on `sub` (a connection used only for that) and starts last-used
   * flushing. Invalidations sent while this process's subscription was down are lost to it, so
   * when it comes back every cached credential is dropped, and while it is down cached
   * credentials are re-read every UNWATCHED_TTL_MS.
   */
  async start(sub: Redis, flushEveryMs = 2000): Promise<void> {
    this.link = watchRedis(sub, () => this.forgetAll());
    sub.on('message', (channel: string, hash: string) => {
      if (channel !== this.channel) return;
      this.epoch++;
      if (hash === '*') this.cache.clear();
      else this.cache.delete(hash);
    });
    await sub.subscribe(this.channel);
    this.flushTimer = setInterval(() => void this.flush().catch((err) => this.logger.warn('last_used flush failed', { err })), flushEveryMs);
    this.flushTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.republishTimer) clearInterval(this.republishTimer);
    await this.flush().catch(() => undefined);
  }

  /**
   * Tells every process to forget a credential (after revoke, rotate, patch). The change is
   * already committed, so this never fails the request: an invalidation Redis does not take is
   * sent again every second until it does (and processes whose subscription was down drop
   * their whole cache when it comes back).
   */
  async invalidate(hash: string): Promise<void> {
    this.cache.delete(hash);
    this.epoch++;
    await this.pub.publish(this.channel, hash).catch((err) => {
      this.logger.warn('credential invalidation not published; retrying', { err });
      this.unsent.add(hash);
      this.republishTimer ??= setInterval(() => void this.republish(), REPUBLISH_EVERY_MS);
      this.republishTimer.unref();
    });
  }

  /** Drops every cached credential (the invalidation channel was down: some may have been missed). */
  forgetAll(): void {
    this.epoch++;
    this.cache.clear();
  }

  private async republish(): Promise<void> {
    for (const hash of this.unsent) {
      try {
        await this.pub.publish(this.channel, hash);
        this.unsent.delete(hash);
      } catch {
        return;
      }
    }
    clearInterval(this.republishTimer);
    this.republishTimer = undefined;
  }

  /** Resolves a raw credential or throws the 401 that says why it is refused. */
  async authenticate(token: string, now = Date.now()): Promise<Principal> {
    if (!looksLikeCredential(token)) throw new AppError('key_invalid', 401, 'the API key is not valid');
    const hash = hashKey(token);
    let entry = this.cache.get(hash);
    // Unknown keys are remembered only briefly, so guessing cannot fill the cache for long.
    const ttl = Math.min(entry?.principal ? this.ttlMs : NEGATIVE_TTL_MS, this.link && !this.link.up() ? UNWATCHED_TTL_MS : Infinity, this.ttlMs);
    if (!entry || now - entry.loadedAt > ttl) entry = await this.load(hash, token, now);
    const p = entry.principal;
    if (!p) throw new AppError('key_invalid', 401, 'the API key is not valid');
    if (p.revokedAt !== null && p.revokedAt <= now) {
      throw new AppError(p.kind === 'session' ? 'session_revoked' : 'key_revoked', 401, `the ${p.kind === 'session' ? 'session' : 'API key'} has been revoked`);
    }
    if (p.expiresAt !== null && p.expiresAt <= now) {
      throw new AppError(p.kind === 'session' ? 'session_expired' : 'key_expired', 401, `the ${p.kind === 'session' ? 'session' : 'API key'} has expired`);
    }
    this.lastUsed.set(p.id, now);
    return p;
  }

  /** Writes the last-used times gathered since the previous flush, in one statement. */
  async flush(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = this.lastUsed;
    this.lastUsed = new Map();
    await this.lookup.touchLastUsed(batch);
  }

  private async load(hash: string, token: string, now: number): Promise<CacheEntry> {
    const epoch = this.epoch;
    const principal = token.startsWith('ds_')
      ? fromSession(await this.lookup.sessionByHash(hash))
      : fromKey(await this.lookup.keyByHash(hash));
    const entry = { principal, loadedAt: now };
    // An invalidation that arrived while we were reading may describe a newer state: don't cache.
    if (epoch === this.epoch) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(hash, entry);
    }
    return entry;
  }
}

function fromKey(row: ApiKeyRow | undefined): Principal | null {
  if (!row) return null;
  return {
    tenantId: row.tenant_id,
    kind: row.kind,
    id: row.id,
    scopes: new Set(row.scopes),
    allowedOrigins: row.allowed_origins,
    expiresAt: row.expires_at ? row.expires_at.getTime() : null,
    revokedAt: row.revoked_at ? row.revoked_at.getTime() : null,
  };
}

function fromSession(row: SessionRow | undefined): Principal | null {
  if (!row) return null;
  return {
    tenantId: row.tenant_id,
    kind: 'session',
    id: row.id,
    scopes: ALL_SCOPES,
    allowedOrigins: [],
    expiresAt: row.expires_at.getTime(),
    revokedAt: row.revoked_at ? row.revoked_at.getTime() : null,
  };
}

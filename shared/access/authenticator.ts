import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.js';
import { AppError } from '../platform/errors.js';
import { hashKey, looksLikeCredential } from './key-format.js';
import type { ApiKeyRow } from './keys.repo.js';
import type { SessionAuthRow } from './sessions.repo.js';
import { fromKey, fromSession, type Principal } from './principal.js';
import { watchRedis, type RedisLink } from '../platform/redis-link.js';
import type { AuthThrottle } from './auth-throttle.js';

export type { Principal, PrincipalKind } from './principal.js';

interface Lookup {
  keyByHash(hash: string): Promise<ApiKeyRow | undefined>;
  sessionByHash(hash: string): Promise<SessionAuthRow | undefined>;
  touchLastUsed(times: Map<string, number>): Promise<void>;
}

interface CacheEntry {
  principal: Principal;
  loadedAt: number;
}

/** Unknown credentials are remembered this long: repeats of a wrong key cost no lookup, and a key created meanwhile is told to every process (invalidate). */
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 100_000;
/** While invalidations cannot arrive (the subscription is down), a cached credential is re-read this often. */
const UNWATCHED_TTL_MS = 1_000;
/** How often invalidations that could not be published are tried again. */
const REPUBLISH_EVERY_MS = 1_000;
/** Guessing fills only this map, never the one of valid credentials; past it the oldest guesses are forgotten. */
const MAX_UNKNOWN = 10_000;

/**
 * Resolves credentials without a database query per request: principals are cached for
 * `ttlMs` and dropped on every process as soon as a key changes (Redis pub/sub).
 */
export class Authenticator {
  private cache = new Map<string, CacheEntry>();
  /** Hashes looked up and not found, with when. */
  private unknown = new Map<string, number>();
  private epoch = 0;
  private lastUsed = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
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
    private throttle: AuthThrottle | null = null,
  ) {}

  /**
   * Subscribes to invalidations on `sub` (a connection used only for that) and starts last-used
   * flushing. Invalidations sent while this process's subscription was down are lost to it, so
   * when it comes back every cached credential is dropped, and while it is down cached
   * credentials are re-read every UNWATCHED_TTL_MS. Resolves once subscribed, which waits for Redis.
   */
  async start(sub: Redis, flushEveryMs = 2000): Promise<void> {
    this.link = watchRedis(sub, () => this.forgetAll());
    sub.on('message', (channel: string, hash: string) => {
      if (channel !== this.channel) return;
      this.epoch++;
      if (hash === '*') {
        this.cache.clear();
        this.unknown.clear();
      } else {
        this.cache.delete(hash);
        this.unknown.delete(hash);
      }
    });
    this.flushTimer = setInterval(() => void this.flush().catch((err) => this.logger.warn('last_used flush failed', { err })), flushEveryMs);
    this.flushTimer.unref();
    await sub.subscribe(this.channel);
    // Subscribed late (Redis was down at start): what was cached before could have missed an invalidation.
    this.forgetAll();
  }

  async stop(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.republishTimer) clearInterval(this.republishTimer);
    await this.flush().catch(() => undefined);
  }

  /**
   * Tells every process to forget a credential (after create, revoke, rotate, patch). The change
   * is already committed, so this never fails the request: an invalidation Redis does not take is
   * sent again every second until it does (and processes whose subscription was down drop
   * their whole cache when it comes back).
   */
  async invalidate(hash: string): Promise<void> {
    this.cache.delete(hash);
    this.unknown.delete(hash);
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
    this.unknown.clear();
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

  /**
   * Resolves a raw credential or throws the 401 that says why it is refused; 429 `auth_throttled`
   * when `address` (the client) or the key's prefix failed too often this minute.
   */
  async authenticate(token: string, address = '', now = Date.now()): Promise<Principal> {
    const hash = looksLikeCredential(token) ? hashKey(token) : null;
    let entry = hash ? this.cache.get(hash) : undefined;
    if (!entry || now - entry.loadedAt > this.cacheTtl(this.ttlMs)) {
      // A credential not known valid here is what guessing sends, and each costs a lookup: throttled. A known one reloads freely.
      if (!entry) this.checkThrottle(address, token, now);
      const loaded = hash && !this.knownUnknown(hash, now) ? await this.load(hash, token, now) : null;
      if (!loaded) {
        this.throttle?.failed(address, token, now);
        throw new AppError('key_invalid', 401, 'the API key is not valid');
      }
      entry = loaded;
    }
    const p = entry.principal;
    if (p.revokedAt !== null && p.revokedAt <= now) {
      throw new AppError(p.kind === 'session' ? 'session_revoked' : 'key_revoked', 401, `the ${p.kind === 'session' ? 'session' : 'API key'} has been revoked`);
    }
    if (p.expiresAt !== null && p.expiresAt <= now) {
      throw new AppError(p.kind === 'session' ? 'session_expired' : 'key_expired', 401, `the ${p.kind === 'session' ? 'session' : 'API key'} has expired`);
    }
    this.lastUsed.set(p.id, now);
    return p;
  }

  /**
   * Writes the last-used times gathered since the previous flush, in one statement; resolves
   * after every earlier flush finished too (stop waits for the timer's write in flight).
   */
  flush(): Promise<void> {
    const write = () => this.writeLastUsed();
    this.flushing = this.flushing.then(write, write);
    return this.flushing;
  }

  private async writeLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = this.lastUsed;
    this.lastUsed = new Map();
    await this.lookup.touchLastUsed(batch);
  }

  private checkThrottle(address: string, token: string, now: number): void {
    const wait = this.throttle?.wait(address, token, now) ?? 0;
    if (wait > 0) {
      throw new AppError(
        'auth_throttled',
        429,
        'too many failed authentications from this client or for this key prefix; try again later',
        { retry_after_s: wait },
        { 'Retry-After': String(wait) },
      );
    }
  }

  private knownUnknown(hash: string, now: number): boolean {
    const at = this.unknown.get(hash);
    return at !== undefined && now - at <= this.cacheTtl(NEGATIVE_TTL_MS);
  }

  /** How long a cached answer holds: `ttl`, never past AUTH_CACHE_TTL_MS, and short while invalidations cannot arrive. */
  private cacheTtl(ttl: number): number {
    return Math.min(ttl, this.ttlMs, this.link && !this.link.up() ? UNWATCHED_TTL_MS : Infinity);
  }

  /** The credential's principal (cached), or null when no key or session has this hash (remembered briefly). */
  private async load(hash: string, token: string, now: number): Promise<CacheEntry | null> {
    const epoch = this.epoch;
    const principal = token.startsWith('ds_') ? fromSession(await this.lookup.sessionByHash(hash)) : fromKey(await this.lookup.keyByHash(hash));
    // An invalidation that arrived while we were reading may describe a newer state: don't cache.
    const cacheable = epoch === this.epoch;
    if (!principal) {
      if (cacheable) {
        this.unknown.delete(hash);
        if (this.unknown.size >= MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value!);
        this.unknown.set(hash, now);
      }
      return null;
    }
    const entry = { principal, loadedAt: now };
    if (cacheable) {
      this.unknown.delete(hash);
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(hash, entry);
    }
    return entry;
  }
}

import type { Redis } from 'ioredis';

/** Whether a Redis connection is up now, as seen from its events. */
export interface RedisLink {
  up(): boolean;
}

/**
 * Watches an ioredis connection: `onBack` runs each time it is ready again after having been
 * lost (not on the first connect). Whatever the connection carried meanwhile (pub/sub notices,
 * schedules in a Redis that restarted empty) may be gone, and the owner re-establishes or
 * re-reads it there.
 */
export function watchRedis(conn: Redis, onBack: () => void): RedisLink {
  let up = conn.status === 'ready';
  let lost = false;
  conn.on('ready', () => {
    up = true;
    if (lost) {
      lost = false;
      onBack();
    }
  });
  const down = () => {
    if (up) lost = true;
    up = false;
  };
  conn.on('close', down);
  conn.on('end', down);
  return { up: () => up };
}

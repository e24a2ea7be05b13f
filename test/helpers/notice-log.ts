import { Redis } from 'ioredis';

/**
 * Every message on one notice channel, read by a subscriber of its own. `upTo()` publishes a
 * marker on the channel and waits for it: Redis hands a channel's messages to a subscriber in the
 * order it took them, so every notice published before the call is in the answer (no waiting to
 * be sure nothing else comes). Processes following the channel see the marker as a tenant id
 * that matches none.
 */
export async function noticeLog(redisUrl: string, channel: string) {
  const sub = new Redis(redisUrl);
  const pub = new Redis(redisUrl);
  const log: string[] = [];
  const markers = new Map<string, () => void>();
  sub.on('message', (_channel: string, message: string) => {
    const marker = markers.get(message);
    if (marker) {
      markers.delete(message);
      marker();
    } else log.push(message);
  });
  await sub.subscribe(channel);
  let n = 0;
  return {
    /** The messages published on the channel so far, in order. */
    async upTo(): Promise<string[]> {
      const marker = `notice-log-marker-${++n}`;
      const seen = new Promise<void>((resolve) => markers.set(marker, resolve));
      await pub.publish(channel, marker);
      await seen;
      return [...log];
    },
    close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}

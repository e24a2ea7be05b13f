import { createHash } from 'node:crypto';
import type { Variant } from './experiment.schema.js';

/** Buckets of the traffic split: 10,000, so a split can be given to 0.01 %. */
const BUCKETS = 10_000;

/** A session's fixed bucket in an experiment: a stable hash of the experiment id and the session (the same in every process and release). */
export function bucketOf(experimentId: string, session: string): number {
  const h = createHash('sha256').update(`${experimentId}\u0000${session}`).digest();
  return h.readUInt32BE(0) % BUCKETS;
}

/** The variant of a session: the buckets are laid out in variant order, each taking its traffic share. */
export function assignVariant<V extends Pick<Variant, 'traffic_percent'>>(experimentId: string, session: string, variants: V[]): V {
  const bucket = bucketOf(experimentId, session);
  let upTo = 0;
  for (const v of variants) {
    upTo += v.traffic_percent * (BUCKETS / 100);
    if (bucket < Math.round(upTo)) return v;
  }
  return variants[variants.length - 1];
}

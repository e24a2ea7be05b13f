import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { deliverNotification } from './deliver-notification.stage.js';
import { requeueDeliveries } from './requeue-deliveries.stage.js';

/** Notifications: signed deliveries to the stores' receivers, and the sweep that re-queues attempts Redis lost. */
export const stages = [deliverNotification, requeueDeliveries];

/** `requeue-deliveries` every SWEEP_EVERY_MS, and at once when Redis comes back. */
export const schedules = (config: Config): Schedule[] => [
  { id: 'requeue-deliveries', job: requeueDeliveries, repeat: { every: config.sweepEveryMs }, data: { graceMs: 10_000, limit: 5_000 }, recover: true },
];

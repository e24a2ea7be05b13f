import type { Knex } from 'knex';
import { receiversRepo } from './receivers.repo.js';
import { deliveriesRepo } from './deliveries.repo.js';

/** Notifications: receivers (/v1/webhooks), their delivery log, and one `notify(tenantId, kind, payload)` for every area. */
export function notificationsRepos(db: Knex) {
  return { webhookReceivers: receiversRepo(db), webhookDeliveries: deliveriesRepo(db) };
}

export { Notifier, deliveryBody, retryDelayMs } from './notifier.js';
export { NOTIFICATION_KINDS, TEST_KIND, type NotificationKind } from './kinds.js';
export { newSigningSecret, signedHeaders } from './signing.js';
export { urlRefusal, isPrivateAddress } from './address-check.js';
export { deliverJob } from './notifications.jobs.js';
export { notifyJobFinished } from './job-events.js';
export type { ReceiverRow } from './receivers.repo.js';
export type { DeliveryRow } from './deliveries.repo.js';

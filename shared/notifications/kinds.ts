/** What a store can be notified of; a receiver subscribes to some of them. */
export const NOTIFICATION_KINDS = [
  'job.succeeded',
  'job.failed',
  'catalog.sync_completed',
  'translation.review_waiting',
  'usage.threshold_reached',
  'subscription.changed',
  'webhook.receiver_disabled',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Sent only by POST /v1/webhooks/{id}/test, whatever the receiver subscribed to. */
export const TEST_KIND = 'webhook.test';

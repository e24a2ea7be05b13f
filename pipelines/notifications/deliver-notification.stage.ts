import { defineStage } from '../define-stage.js';
import { deliverJob } from '../../shared/notifications/index.js';

/**
 * Signs (fresh timestamp, same webhook-id) and sends one attempt of a notification; after a
 * failure queues the next attempt with a doubling delay, after the last one counts the failure
 * against the receiver (disabled after WEBHOOK_DISABLE_AFTER in a row). Re-runnable: an attempt
 * already recorded is not sent again. Job id: deliver-<delivery>-<attempt>.
 */
export const deliverNotification = defineStage({
  ...deliverJob,
  async run({ data, deps }) {
    return deps.notifications.attempt(data.deliveryId, data.attempt);
  },
});

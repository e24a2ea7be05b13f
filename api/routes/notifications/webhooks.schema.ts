import { z } from 'zod';
import { NOTIFICATION_KINDS, type DeliveryRow, type ReceiverRow } from '../../../shared/notifications/index.js';
import { Limit, Timestamp } from '../../http/schemas.js';

const Kinds = z.array(z.enum(NOTIFICATION_KINDS)).min(1).max(NOTIFICATION_KINDS.length);
const Url = z.string().url().max(2000);

export const ReceiverParams = z.object({ receiver_id: z.string().max(64) });
export const CreateReceiver = z.strictObject({
  url: Url,
  kinds: Kinds,
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});
export const UpdateReceiver = z.strictObject({
  url: Url.optional(),
  kinds: Kinds.optional(),
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional().describe('true enables a receiver again (after it was disabled for failing) and clears its failure streak'),
});
export const DeliveriesQuery = z.strictObject({ limit: Limit(50, 200), cursor: z.string().max(200).optional() });

export const ReceiverOut = z.object({
  id: z.string(),
  url: z.string(),
  kinds: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  disabled_at: Timestamp.nullable(),
  failure_streak: z.number().int(),
  secret_last4: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const ReceiverWithSecret = ReceiverOut.extend({
  secret: z.string().describe('whsec_…: the signing secret; shown only in this answer'),
});
export const DeliveryOut = z.object({
  id: z.string().describe('also the webhook-id header'),
  kind: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'skipped']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: Timestamp.nullable(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
  payload: z.record(z.string(), z.unknown()),
});
export const DeliveryPage = z.object({ data: z.array(DeliveryOut), next_cursor: z.string().nullable() });

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
export function toReceiverOut(r: ReceiverRow) {
  return {
    id: r.id,
    url: r.url,
    kinds: r.kinds,
    description: r.description,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    disabled_at: iso(r.disabled_at),
    failure_streak: r.failure_streak,
    secret_last4: r.secret_last4,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
export function toDeliveryOut(d: DeliveryRow) {
  return {
    id: d.id,
    kind: d.kind,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_attempt_at: iso(d.next_attempt_at),
    created_at: iso(d.created_at)!,
    finished_at: iso(d.finished_at),
    payload: d.payload,
  };
}

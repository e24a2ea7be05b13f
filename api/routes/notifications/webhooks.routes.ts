import { z } from 'zod';
import { cursorPage, timeIdCursor } from '../../../shared/platform/cursor.js';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { AppError, notFound } from '../../../shared/platform/errors.js';
import { Sealer } from '../../../shared/platform/sealed.js';
import { newSigningSecret, TEST_KIND, urlRefusal } from '../../../shared/notifications/index.js';
import { Deleted } from '../../http/schemas.js';
import {
  CreateReceiver,
  DeliveriesQuery,
  DeliveryOut,
  DeliveryPage,
  ReceiverOut,
  ReceiverParams,
  ReceiverWithSecret,
  toDeliveryOut,
  toReceiverOut,
  UpdateReceiver,
} from './webhooks.schema.js';

const ADMIN = { scope: 'admin' as const, kinds: ['secret' as const, 'session' as const] };

/** Outbound notification receivers: register, change, enable/disable, rotate the secret, delivery log, test delivery. */
export function webhookRoutes(deps: Deps): RouteSpec[] {
  const sealer = new Sealer(deps.config.secretEncryptionKey);
  const repo = deps.repos.webhookReceivers;
  const checkUrl = async (url: string) => {
    const refused = await urlRefusal(url, deps.config.ops.webhooks.allowPrivate);
    if (refused)
      throw new AppError('url_not_allowed', 400, `the receiver URL is refused: ${refused}`, [{ field: 'url', code: 'url_not_allowed', message: refused }]);
  };
  const mint = () => {
    const secret = newSigningSecret();
    return { secret, sealed: sealer.seal(secret), last4: secret.slice(-4) };
  };
  const find = async (tenantId: string, id: string) => (await repo.find(tenantId, id)) ?? Promise.reject(notFound('webhook receiver'));
  return [
    /** Registers a receiver (the URL must not be private unless WEBHOOK_ALLOW_PRIVATE); its secret is answered once and stored sealed. */
    defineRoute({
      method: 'post',
      path: '/v1/webhooks',
      tag: 'webhooks',
      summary: 'Register a notification receiver',
      auth: ADMIN,
      body: CreateReceiver,
      responses: { 201: { description: 'the receiver and its signing secret (shown once)', schema: ReceiverWithSecret } },
      async handle(ctx, { body }) {
        await checkUrl(body.url);
        const { secret, sealed, last4 } = mint();
        const row = await repo.create(ctx.state.principal.tenantId, {
          url: body.url,
          kinds: [...new Set(body.kinds)],
          description: body.description ?? '',
          secret: sealed,
          secretLast4: last4,
          enabled: body.enabled ?? true,
        });
        ctx.status = 201;
        ctx.body = { ...toReceiverOut(row), secret };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks',
      tag: 'webhooks',
      summary: 'List notification receivers',
      auth: ADMIN,
      responses: { 200: { description: 'receivers (never their secrets)', schema: z.object({ data: z.array(ReceiverOut) }) } },
      async handle(ctx) {
        ctx.body = { data: (await repo.list(ctx.state.principal.tenantId)).map(toReceiverOut) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{receiver_id}',
      tag: 'webhooks',
      summary: 'Get a notification receiver',
      auth: ADMIN,
      params: ReceiverParams,
      responses: { 200: { description: 'the receiver', schema: ReceiverOut } },
      async handle(ctx, { params }) {
        ctx.body = toReceiverOut(await find(ctx.state.principal.tenantId, params.receiver_id));
      },
    }),
    /** Changes URL, kinds, description; `enabled` turns it off or on (on clears the failure streak). */
    defineRoute({
      method: 'patch',
      path: '/v1/webhooks/{receiver_id}',
      tag: 'webhooks',
      summary: 'Change, enable or disable a receiver',
      auth: ADMIN,
      params: ReceiverParams,
      body: UpdateReceiver,
      responses: { 200: { description: 'the receiver', schema: ReceiverOut } },
      async handle(ctx, { params, body }) {
        if (body.url) await checkUrl(body.url);
        const row = await repo.update(ctx.state.principal.tenantId, params.receiver_id, {
          ...body,
          ...(body.kinds ? { kinds: [...new Set(body.kinds)] } : {}),
        });
        if (!row) throw notFound('webhook receiver');
        ctx.body = toReceiverOut(row);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/webhooks/{receiver_id}',
      tag: 'webhooks',
      summary: 'Remove a receiver and its delivery log',
      auth: ADMIN,
      params: ReceiverParams,
      responses: { 200: { description: 'removed', schema: Deleted } },
      async handle(ctx, { params }) {
        if (!(await repo.remove(ctx.state.principal.tenantId, params.receiver_id))) throw notFound('webhook receiver');
        ctx.body = { deleted: true, id: params.receiver_id };
      },
    }),
    /** A new signing secret (shown once); attempts from now on are signed with it. */
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{receiver_id}/rotate-secret',
      tag: 'webhooks',
      summary: "Rotate a receiver's signing secret",
      auth: ADMIN,
      params: ReceiverParams,
      responses: { 200: { description: 'the receiver and its new secret (shown once)', schema: ReceiverWithSecret } },
      async handle(ctx, { params }) {
        const { secret, sealed, last4 } = mint();
        const row = await repo.update(ctx.state.principal.tenantId, params.receiver_id, { secret: sealed, secret_last4: last4 });
        if (!row) throw notFound('webhook receiver');
        ctx.body = { ...toReceiverOut(row), secret };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{receiver_id}/deliveries',
      tag: 'webhooks',
      summary: "A receiver's delivery log, newest first",
      auth: ADMIN,
      params: ReceiverParams,
      query: DeliveriesQuery,
      responses: {
        200: { description: 'deliveries (a finished one is kept 30 days by default, the operator sets it; a pending one until it ends)', schema: DeliveryPage },
      },
      async handle(ctx, { params, query }) {
        const tenantId = ctx.state.principal.tenantId;
        await find(tenantId, params.receiver_id);
        const before = timeIdCursor.decode(query.cursor);
        ctx.body = await cursorPage(
          timeIdCursor,
          query.limit,
          (n) => deps.repos.webhookDeliveries.list(tenantId, params.receiver_id, n, before),
          (last) => ({ at: last.created_at.toISOString(), id: last.id }),
          toDeliveryOut,
        );
      },
    }),
    /** Queues a `webhook.test` notification to this receiver (signed and retried like any other). */
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{receiver_id}/test',
      tag: 'webhooks',
      summary: 'Send a test notification',
      auth: ADMIN,
      params: ReceiverParams,
      responses: { 202: { description: 'the delivery, queued', schema: DeliveryOut } },
      async handle(ctx, { params }) {
        const receiver = await find(ctx.state.principal.tenantId, params.receiver_id);
        if (!receiver.enabled) throw new AppError('receiver_disabled', 409, 'the receiver is disabled: enable it first (PATCH enabled: true)');
        const delivery = await deps.notifications.deliverTo(receiver, TEST_KIND, { receiver_id: receiver.id, message: 'a test notification' });
        ctx.status = 202;
        ctx.body = toDeliveryOut(delivery);
      },
    }),
  ];
}

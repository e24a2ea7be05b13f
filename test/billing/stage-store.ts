import { call, type Harness } from '../helpers/harness.js';
import { noticeLog } from '../helpers/notice-log.js';
import { applyBillingEvent } from '../../pipelines/billing/apply-billing-event.stage.js';

/**
 * A store on the mock provider, driven over HTTP as a person would (checkout page, billing API),
 * whose provider events are applied by calling the apply-billing-event stage as its job would (no
 * worker): the test decides when each lands. It has a receiver of subscription changes (the
 * deliveries are the store's notifications) and counts the `subscription` notices published for it.
 */
export async function stageStore(h: Harness) {
  const tenant = await h.tenant();
  const db = h.api.deps.db;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });
  const receiver = await api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', kinds: ['subscription.changed'] });
  if (receiver.status !== 201) throw new Error(`receiver: ${receiver.status}`);
  const notices = await noticeLog(h.config.redisUrl, h.api.deps.notices.channel('subscription'));

  /** The store's provider events not applied yet, oldest first. */
  const unapplied = async (): Promise<string[]> =>
    (await db('billing_events').where({ tenant_id: tenant.id }).whereNull('applied_at').orderBy(['received_at', 'event_id'])).map((e) => e.event_id);
  /** One run of the stage on a stored event; its outcome. */
  const apply = async (eventId: string): Promise<string> =>
    ((await applyBillingEvent.run({ data: { provider: 'mock', eventId }, deps: h.api.deps } as never)) as { outcome: string }).outcome;
  /** Applies every event the provider has sent, oldest first. */
  const settle = async () => {
    for (const id of await unapplied()) await apply(id);
  };
  /** Checkout, paid on the mock's page, its event applied. */
  const subscribe = async (body: unknown) => {
    const res = await api('POST', '/v1/billing/checkout', body);
    if (res.status !== 200) throw new Error(`checkout: ${res.status} ${JSON.stringify(res.body)}`);
    await call('', 'POST', `${res.body.url}/pay`);
    await settle();
  };
  /** A portal action at the mock (renew-fail, cancel-now, ...): its event is stored, not applied. */
  const portal = async (action: string) => {
    const link = new URL((await api('GET', '/v1/billing/portal')).body.url);
    const res = await call('', 'POST', `${link.origin}${link.pathname}/${action}${link.search}`);
    if (res.status !== 200) throw new Error(`portal ${action}: ${res.status}`);
  };
  const row = () => db('billing_subscriptions').where({ tenant_id: tenant.id }).first();
  /** The store's subscription.changed deliveries, oldest first: what it was told. */
  const told = async () =>
    (await db('webhook_deliveries').where({ tenant_id: tenant.id, kind: 'subscription.changed' }).orderBy(['created_at', 'id'])).map((d) => d.payload);
  /** How many `subscription` notices were published for the store so far. */
  const noticed = async () => (await notices.upTo()).filter((id) => id === tenant.id).length;
  /** The mock provider's invoices of the store, oldest first. */
  const invoices = async () =>
    (await db('billing_mock_objects').where({ kind: 'invoice', tenant_id: tenant.id }).orderBy('created_at')).map((r) => ({
      total: r.data.total_minor,
      status: r.data.status,
    }));
  return { tenant, api, unapplied, apply, settle, subscribe, portal, row, told, noticed, invoices, close: notices.close };
}

export type StageStore = Awaited<ReturnType<typeof stageStore>>;

/**
 * Stage stores of one test file: `store(subscription)` makes one subscribed with that checkout body;
 * `closeAll()` (its teardown) closes them and then the harness.
 */
export function stageStores(h: Harness) {
  const stores: StageStore[] = [];
  return {
    async store(subscription: Record<string, unknown>): Promise<StageStore> {
      const s = await stageStore(h);
      stores.push(s);
      await s.subscribe(subscription);
      return s;
    },
    async closeAll() {
      for (const s of stores) s.close();
      await h.close();
    },
  };
}

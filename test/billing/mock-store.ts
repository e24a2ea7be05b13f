import { call, type Harness } from '../helpers/harness.js';
import { eventually } from '../helpers/workers.js';

/** A store on the mock provider, driven over HTTP as a person would, and what Postgres then holds for it. */
export async function mockStore(h: Harness) {
  const tenant = await h.tenant();
  const db = h.api.deps.db;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key: tenant.key, body, headers });

  /** Waits until every provider event of the store is applied by the worker. */
  const settled = () =>
    eventually(async () => {
      const [{ n }] = await db('billing_events').where({ tenant_id: tenant.id }).whereNull('applied_at').count({ n: '*' });
      return Number(n) === 0;
    });
  const row = () => db('billing_subscriptions').where({ tenant_id: tenant.id }).first();
  /** The mock provider's invoices of the store, oldest first: total and status. */
  const invoices = async (): Promise<Array<{ total: number; status: string }>> =>
    (await db('billing_mock_objects').where({ kind: 'invoice', tenant_id: tenant.id }).orderBy('created_at')).map((r) => ({
      total: r.data.total_minor,
      status: r.data.status,
    }));
  const checkout = async (body: unknown): Promise<string> => {
    const res = await api('POST', '/v1/billing/checkout', body);
    if (res.status !== 200) throw new Error(`checkout answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.url;
  };
  /** A checkout page action (pay, trial, fail, cancel); waits for its webhook to be applied. */
  const act = async (url: string, action: string) => {
    const res = await call('', 'POST', `${url}/${action}`);
    await settled();
    return res;
  };
  /** A portal action (renew, renew-fail, cancel-at-period-end, ...); waits for its webhook to be applied. */
  const portal = async (action: string) => {
    const link = new URL((await api('GET', '/v1/billing/portal')).body.url);
    const res = await call('', 'POST', `${link.origin}${link.pathname}/${action}${link.search}`);
    await settled();
    return res;
  };
  const subscribe = async (body: unknown, action = 'pay') => act(await checkout(body), action);

  return { tenant, db, api, settled, row, invoices, checkout, act, portal, subscribe };
}

import { listAll, type PaddlePage } from './paddle.list.js';

/**
 * Paddle takes no idempotency key, so a one-time charge (`/subscriptions/{id}/charge`) is announced
 * in the subscription's custom_data before it is made: a pending mark with the request's key, our
 * time, and the charges already on the subscription. A retry of the same request that finds the mark
 * looks for the charge among the subscription's transactions before charging again.
 */

/** How far our clock may run ahead of Paddle's: a retry's lookup starts this long before the mark. */
export const CLOCK_SKEW_MS = 10_000;

type Item = { price_id: string; quantity: number };
type TxItem = { price_id?: string; price?: { id?: string }; quantity?: number };
type Tx = { id: string; status?: string; items?: TxItem[] };

/** A pending mark: the request's key, our time, and the ids of the charges already there (left out by a retry's lookup). */
export interface PendingCharge {
  key: string;
  at: string;
  seen: string[];
}

const itemsKey = (list: TxItem[]) =>
  list
    .map((i) => `${i.price?.id ?? i.price_id}x${i.quantity}`)
    .sort()
    .join(',');

/**
 * The subscription's one-time charges created since `from` (Paddle's clock): origin
 * `subscription_charge`, every page (30 a page). A list too long to read whole throws (listAll):
 * a charge on a page not read would be taken for one not made, and billed again.
 */
function chargesSince(page: PaddlePage, subscriptionId: string, from: number): Promise<Tx[]> {
  const since = encodeURIComponent(new Date(from).toISOString());
  return listAll<Tx>(
    page,
    `/transactions?subscription_id=${encodeURIComponent(subscriptionId)}&origin=subscription_charge&created_at[GTE]=${since}&per_page=30`,
  );
}

/** The pending mark for a charge about to be made under `key`: now, and the charges since CLOCK_SKEW_MS before now. */
export async function pendingCharge(page: PaddlePage, subscriptionId: string, key: string): Promise<PendingCharge> {
  const at = Date.now();
  const seen = (await chargesSince(page, subscriptionId, at - CLOCK_SKEW_MS)).map((tx) => tx.id);
  return { key, at: new Date(at).toISOString(), seen };
}

/**
 * Whether the charge of `items` that `pending` (a mark read back from custom_data) announced for
 * `key` was made: a charge of exactly these items created since CLOCK_SKEW_MS before the mark, not
 * one of those already there when it was written, and not canceled (Paddle cancels one whose
 * payment failed). False for another key's mark or none.
 */
export async function pendingChargeMade(page: PaddlePage, subscriptionId: string, pending: unknown, key: string, items: Item[]): Promise<boolean> {
  const mark = pending as Partial<PendingCharge> | null | undefined;
  if (mark?.key !== key || typeof mark.at !== 'string') return false;
  const seen = new Set(Array.isArray(mark.seen) ? mark.seen : []);
  const txs = await chargesSince(page, subscriptionId, Date.parse(mark.at) - CLOCK_SKEW_MS);
  return txs.some((tx) => !seen.has(tx.id) && tx.status !== 'canceled' && itemsKey(tx.items ?? []) === itemsKey(items));
}

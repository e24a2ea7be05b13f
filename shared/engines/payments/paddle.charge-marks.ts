import { listAll, type PaddlePage } from './paddle.list.js';

/**
 * Paddle takes no idempotency key, so a one-time charge (`/subscriptions/{id}/charge`) is announced
 * in the subscription's custom_data before it is made: a pending mark with the request's key, our
 * time, and the charges already on the subscription. A retry of the same request that finds its
 * key's mark looks for the charge among the subscription's transactions before charging again.
 *
 * Marks are kept per key, a short list in each slot (MARK_SLOTS), so a later request does not erase
 * the mark of an earlier one whose retry is still to come: every mark younger than the retention
 * (the service's Idempotency-Key retention, IDEMPOTENCY_TTL_HOURS), at most MAX_MARKS a slot, the
 * newest kept. A slot written before the lists (one mark object; a plan change's done key as a
 * string in `addon_charge_key`) is still read, and is rewritten as a list at the next write.
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

/** A plan change's done mark: its charge was made (no lookup needed). */
export interface DoneCharge {
  key: string;
  at: string;
}

/** The custom_data keys holding our marks: an add-on purchase's pending marks, a plan change's pending and done marks. */
export const MARK_SLOTS = { purchase: 'addon_purchase_pending', change: 'addon_charge_pending', changeDone: 'addon_charge_done' } as const;
/** The done key of a plan change as written before the lists (one string): read, and moved into `addon_charge_done` at the next write. */
const LEGACY_DONE_KEY = 'addon_charge_key';

/** Marks kept a slot at most (Paddle allows 20 immediate charges a subscription an hour). */
export const MAX_MARKS = 20;
/** How long a mark is kept by default: the Idempotency-Key retention's default (IDEMPOTENCY_TTL_HOURS, 48 h). */
export const MARK_RETENTION_MS = 48 * 3600_000;

const isMark = (m: unknown): m is DoneCharge =>
  typeof (m as DoneCharge | null)?.key === 'string' && typeof (m as DoneCharge).at === 'string' && Number.isFinite(Date.parse((m as DoneCharge).at));

/** The marks a slot holds as read back: a list, or one mark (the shape before the lists), or none. */
function marksIn<M extends DoneCharge>(slot: unknown): M[] {
  return (Array.isArray(slot) ? slot : [slot]).filter(isMark) as M[];
}

/** Whether a plan change under `key` is marked done (its charge made): a done mark, or the done key written before the lists. */
export function changeDone(custom: Record<string, unknown>, key: string): boolean {
  return custom[LEGACY_DONE_KEY] === key || marksIn(custom[MARK_SLOTS.changeDone]).some((m) => m.key === key);
}

/** `marks` younger than `retentionMs` at `now`, at most MAX_MARKS of them, the newest kept, oldest first. */
function bounded<M extends DoneCharge>(marks: M[], now: number, retentionMs: number): M[] {
  return marks
    .filter((m) => now - Date.parse(m.at) < retentionMs)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    .slice(-MAX_MARKS);
}

/**
 * custom_data to write back: what it holds kept (Paddle's PATCH replaces it whole), each mark slot
 * a list (a slot of the shape before the lists rewritten as one; the old done key moved into
 * `addon_charge_done`, timed `now` as it carries no time), marks older than `retentionMs` dropped,
 * at most MAX_MARKS a slot, an empty slot left out.
 */
export function tidyMarks(custom: Record<string, unknown>, now: number, retentionMs: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...custom };
  delete out[LEGACY_DONE_KEY];
  for (const slot of Object.values(MARK_SLOTS)) {
    const marks = marksIn(custom[slot]);
    const legacy = custom[LEGACY_DONE_KEY];
    if (slot === MARK_SLOTS.changeDone && typeof legacy === 'string' && !marks.some((m) => m.key === legacy))
      marks.push({ key: legacy, at: new Date(now).toISOString() });
    const kept = bounded(marks, now, retentionMs);
    if (kept.length > 0) out[slot] = kept;
    else delete out[slot];
  }
  return out;
}

/**
 * custom_data (tidied: tidyMarks) with `mark` in `slot`, replacing any mark of the same key there;
 * a done mark also takes its key's pending mark out of the plan change's pending slot.
 */
export function withMark(
  custom: Record<string, unknown>,
  slot: (typeof MARK_SLOTS)[keyof typeof MARK_SLOTS],
  mark: PendingCharge | DoneCharge,
  now: number,
  retentionMs: number,
): Record<string, unknown> {
  const out = tidyMarks(custom, now, retentionMs);
  const others = (s: string) => marksIn(out[s]).filter((m) => m.key !== mark.key);
  out[slot] = bounded([...others(slot), mark], now, retentionMs);
  if (slot === MARK_SLOTS.changeDone) {
    const pending = others(MARK_SLOTS.change);
    if (pending.length > 0) out[MARK_SLOTS.change] = pending;
    else delete out[MARK_SLOTS.change];
  }
  return out;
}

/**
 * Whether the charge of `items` announced for `key` was made, `slot` the mark slot read back from
 * custom_data (a list of marks, or one mark of the shape before the lists): with `key`'s mark, a
 * charge of exactly these items created since CLOCK_SKEW_MS before the mark, not one of those
 * already there when it was written, and not canceled (Paddle cancels one whose payment failed).
 * False when the slot holds no mark for `key`.
 */
export async function pendingChargeMade(page: PaddlePage, subscriptionId: string, slot: unknown, key: string, items: Item[]): Promise<boolean> {
  const mine = marksIn<PendingCharge>(slot).filter((m) => m.key === key);
  if (mine.length === 0) return false;
  // The newest mark of the key: a retry that found no charge marks again before charging.
  const mark = mine.reduce((a, b) => (Date.parse(b.at) > Date.parse(a.at) ? b : a));
  const seen = new Set(Array.isArray(mark.seen) ? mark.seen : []);
  const txs = await chargesSince(page, subscriptionId, Date.parse(mark.at) - CLOCK_SKEW_MS);
  return txs.some((tx) => !seen.has(tx.id) && tx.status !== 'canceled' && itemsKey(tx.items ?? []) === itemsKey(items));
}

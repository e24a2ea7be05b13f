import { AppError } from '../platform/errors.js';
import type { BackfillScope, Status } from './translation.schema.js';

export type ReviewAction = 'approve' | 'reject' | 'edit';

/** What a transition looks at. */
export interface ItemState {
  status: Status;
  /** A person wrote the current text (also kept while the item is stale). */
  human_edited: boolean;
  translated_text: string | null;
}

/** Where a review action leads from each status (README "Translation states"); absent = 409 invalid_transition. */
const REVIEW: Record<ReviewAction, Partial<Record<Status, Status>>> = {
  // Approving needs a machine text a person has not replaced; a stale text must be re-translated or edited first.
  approve: { machine: 'approved', review: 'approved', rejected: 'approved' },
  // A person's text is only ever replaced by another edit, so it cannot be rejected.
  reject: { machine: 'rejected', review: 'rejected', approved: 'rejected', stale: 'rejected' },
  edit: {
    pending: 'human_edited',
    machine: 'human_edited',
    review: 'human_edited',
    approved: 'human_edited',
    rejected: 'human_edited',
    human_edited: 'human_edited',
    stale: 'human_edited',
  },
};

/** The status a review action leads to, or null when the action is not allowed from the item's state. */
export function reviewTarget(item: ItemState, action: ReviewAction): Status | null {
  const next = REVIEW[action][item.status] ?? null;
  if (action === 'approve' && item.translated_text == null) return null;
  if (action === 'reject' && item.human_edited) return null;
  return next;
}

/** The 409 for a review action the item's state does not allow. */
export function invalidTransition(item: ItemState & { id: string }, action: ReviewAction): AppError {
  const why =
    item.human_edited && action === 'reject'
      ? 'a human-edited translation can only be replaced by another edit'
      : action === 'approve' && item.translated_text == null
        ? 'there is no translated text to approve'
        : `cannot ${action} a translation in status ${item.status}`;
  return new AppError('invalid_transition', 409, why, { id: item.id, status: item.status, action, human_edited: item.human_edited });
}

/** Statuses a backfill of each scope (re)translates; human-edited text is never among them. */
export const SCOPE_STATUSES: Record<BackfillScope, readonly Status[]> = {
  missing: ['pending', 'rejected'],
  stale: ['stale'],
  all: ['pending', 'machine', 'review', 'approved', 'rejected', 'stale'],
};

/** Whether a backfill of `scope` takes this existing item (a field without an item is taken by `missing` and `all`). */
export function backfillTakes(item: Pick<ItemState, 'status' | 'human_edited'>, scope: BackfillScope): boolean {
  return !item.human_edited && SCOPE_STATUSES[scope].includes(item.status);
}

/** Where a source change leads: any translated state goes stale (remembering where from); pending stays pending. */
export function staleTarget(item: Pick<ItemState, 'status'> & { stale_from: Status | null }): { status: Status; stale_from: Status | null } {
  if (item.status === 'pending') return { status: 'pending', stale_from: null };
  if (item.status === 'stale') return { status: 'stale', stale_from: item.stale_from };
  return { status: 'stale', stale_from: item.status };
}

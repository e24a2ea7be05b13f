import { hasError, type QualityNotes } from './quality-checks.js';
import type { TranslationSettings } from './settings.repo.js';
import type { Status } from './translation.schema.js';

/**
 * Where a machine translation goes: any failed check, or a product among the backfill's
 * review_top_n, sends it to review; otherwise approved when the store auto-approves at its score,
 * else machine (served in search, not written back until approved).
 */
export function routeTranslation(
  item: { notes: QualityNotes; score: number; review: boolean },
  policy: Pick<TranslationSettings, 'auto_approve' | 'auto_approve_min_score'>,
): Status {
  if (item.review || hasError(item.notes)) return 'review';
  if (policy.auto_approve && item.score >= policy.auto_approve_min_score) return 'approved';
  return 'machine';
}

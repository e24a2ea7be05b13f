/**
 * Paddle's list endpoints answer a page at a time: `{data, meta: {pagination: {per_page, next,
 * has_more, estimated_total}}}`, `next` a full URL (Paddle's own host) of the same query with an
 * `after` cursor, the last id of the page.
 */

/** A list answer, the envelope kept. */
export interface PaddleListPage<T> {
  data?: T[];
  meta?: { pagination?: { next?: string | null; has_more?: boolean } };
}

/** One GET through the adapter's request (retries and timeout applied), the envelope kept. */
export type PaddlePage = <T>(path: string) => Promise<PaddleListPage<T>>;

/** Pages a list may take (600 transactions at 30 a page) before it is refused as unreadable. */
export const MAX_PAGES = 20;

/**
 * Every entity of the list at `path` (relative to the adapter's base URL), following
 * `meta.pagination.next` while `has_more`. The next page is asked of the adapter's own base URL
 * with `next`'s `after` cursor, not of the host `next` names. A list longer than `maxPages`, or
 * one that says it has more without a cursor, throws: a caller deciding from it (was this charge
 * made?) must not decide from part of it.
 */
export async function listAll<T>(page: PaddlePage, path: string, maxPages = MAX_PAGES): Promise<T[]> {
  const all: T[] = [];
  let next = path;
  for (let n = 0; n < maxPages; n++) {
    const res = await page<T>(next);
    all.push(...(res.data ?? []));
    const more = res.meta?.pagination;
    if (!more?.has_more) return all;
    const after = more.next ? new URL(more.next, 'https://api.paddle.com').searchParams.get('after') : null;
    if (!after) throw new Error(`Paddle listed ${path} as having more pages without a next cursor`);
    next = `${path}${path.includes('?') ? '&' : '?'}after=${encodeURIComponent(after)}`;
  }
  throw new Error(`Paddle's list ${path} is longer than ${maxPages} pages: not read in part`);
}

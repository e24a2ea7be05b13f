import { insertIsolating } from '../platform/db/insert-isolating.js';
import { isDependencyDown } from '../platform/dependency-errors.js';
import type { Logger } from '../platform/logger.js';
import { rowsRefused } from '../platform/metrics.js';
import type { EventRow } from './events.repo.js';
import { AppError } from '../platform/errors.js';

/**
 * Postgres busy rather than refusing: a statement that ran past the API's statement_timeout (57014,
 * a lock held on the table), a lock or serialization wait given up (55P03, 40001, 40P01), no
 * connection slot (53300). The same rows go in once it is free again.
 */
const BUSY = new Set(['57014', '55P03', '40001', '40P01', '53300']);

interface Pending {
  row: EventRow;
  tries: number;
}

/**
 * Buffers shopper events in memory and writes them in one statement per flush (every `everyMs`
 * or at `maxRows`), so an events call never waits on Postgres. Client event ids are deduped
 * inside the buffer here and against stored rows by the insert (ON CONFLICT DO NOTHING), so a
 * resent event is stored once. A batch holds several tenants' events, so one row Postgres refuses
 * for its data (class 22/23) must not take the others down: the batch is split until that row is
 * alone, every other row is written and the refused one is dropped (one error line each, counted in
 * pss_buffered_rows_refused_total). Rows not written because Postgres is unreachable stay buffered
 * and are tried on every flush until it is back; a batch failing for any other reason is tried once
 * more on the next flush, then dropped. Past `maxBuffered` rows new events are dropped (all logged).
 */
export class EventWriter {
  private pending: Pending[] = [];
  private keys = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  /** A flush waiting behind the one writing: later flushes join it (it writes whatever is buffered when it starts). */
  private queued: Promise<void> | null = null;
  /** The last write failed (Postgres down or busy): only the timer tries again, not every call that fills a batch. */
  private failing = false;
  private timer?: NodeJS.Timeout;
  private droppedSinceWarn = 0;

  constructor(
    private insertMany: (rows: EventRow[]) => Promise<number>,
    private logger: Logger,
    private everyMs = 1000,
    private maxRows = 500,
    private maxBuffered = 50_000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.everyMs);
    this.timer.unref();
  }

  /**
   * Whether `n` more rows fit in the buffer. Callers that acknowledge events ask first and refuse the
   * call when they do not (503: Postgres has been unreachable long enough to fill it), so an event
   * answered as taken is never one the buffer drops.
   */
  canTake(n: number): boolean {
    return this.pending.length + n <= this.maxBuffered;
  }

  /** Adds rows; returns how many were taken (rows whose client id is already buffered are not). */
  push(rows: EventRow[]): number {
    let taken = 0;
    for (const row of rows) {
      const key = row.client_event_id === null ? null : `${row.tenant_id}\u0000${row.client_event_id}`;
      if (key !== null && this.keys.has(key)) continue;
      if (this.pending.length >= this.maxBuffered) {
        this.droppedSinceWarn++;
        continue;
      }
      if (key !== null) this.keys.add(key);
      this.pending.push({ row, tries: 0 });
      taken++;
    }
    if (this.droppedSinceWarn) {
      this.logger.warn('event buffer full; events dropped', { dropped: this.droppedSinceWarn });
      this.droppedSinceWarn = 0;
    }
    // While writes fail the buffer stays past maxRows: a flush per call would queue one more failing statement per events call.
    if (this.pending.length >= this.maxRows && !this.failing) void this.flush();
    return taken;
  }

  /**
   * Writes what is buffered now; resolves after this and every earlier flush finished. A flush
   * asked for while another waits to start joins it: at most one waits behind the one writing.
   */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.chain.then(() => {
      this.queued = null;
      return this.write();
    });
    this.queued = next;
    this.chain = next;
    return next;
  }

  private async write(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending.splice(0, this.maxRows);
      for (const p of batch) if (p.row.client_event_id !== null) this.keys.delete(`${p.row.tenant_id}\u0000${p.row.client_event_id}`);
      const { refused, failed } = await insertIsolating(
        batch.map((p) => p.row),
        this.insertMany,
      );
      for (const { row, err } of refused) {
        rowsRefused.inc({ table: 'events' });
        this.logger.error('event refused by the database; dropped', { err, tenant_id: row.tenant_id, id: row.id, type: row.type });
      }
      if (failed) {
        const left = new Set(failed.rows);
        // Postgres down or busy: keep every row (an acknowledged event is not lost to an outage); otherwise one more try.
        const down = isDependencyDown(failed.err) || BUSY.has((failed.err as { code?: string }).code ?? '');
        const retry = batch.filter((p) => left.has(p.row) && (down || ++p.tries < 2));
        this.logger.warn('event flush failed', { err: failed.err, rows: left.size, retried: retry.length, dropped: left.size - retry.length });
        // Put retries back for the next flush (not this one: the database is likely still failing).
        this.pending.unshift(...retry);
        this.failing = true;
        return;
      }
      this.failing = false;
    }
  }

  get buffered(): number {
    return this.pending.length;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/**
 * Refuses a call whose events the buffer cannot hold (Postgres unreachable long enough to fill it):
 * 503 `dependency_unavailable` with Retry-After, nothing taken, so the sender keeps and resends them.
 */
export function takeEvents(writer: EventWriter, rows: EventRow[]): void {
  if (!writer.canTake(rows.length)) {
    throw new AppError(
      'dependency_unavailable',
      503,
      'events cannot be taken now: the database has been unreachable and the buffer of unwritten events is full; send them again later',
      undefined,
      { 'Retry-After': '5' },
    );
  }
  writer.push(rows);
}

import type { Logger } from '../platform/logger.js';
import type { EventRow } from './events.repo.js';

interface Pending {
  row: EventRow;
  tries: number;
}

/**
 * Buffers shopper events in memory and writes them in one statement per flush (every `everyMs`
 * or at `maxRows`), so an events call never waits on Postgres. Client event ids are deduped
 * inside the buffer here and against stored rows by the insert (ON CONFLICT DO NOTHING), so a
 * resent event is stored once. A failed batch is tried once more on the next flush, then dropped;
 * past `maxBuffered` rows new events are dropped (both logged).
 */
export class EventWriter {
  private pending: Pending[] = [];
  private keys = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
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
    if (this.pending.length >= this.maxRows) void this.flush();
    return taken;
  }

  /** Writes what is buffered now; resolves after this and every earlier flush finished. */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private async write(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending.splice(0, this.maxRows);
      for (const p of batch) if (p.row.client_event_id !== null) this.keys.delete(`${p.row.tenant_id}\u0000${p.row.client_event_id}`);
      try {
        await this.insertMany(batch.map((p) => p.row));
      } catch (err) {
        const retry = batch.filter((p) => ++p.tries < 2);
        this.logger.warn('event flush failed', { err, rows: batch.length, retried: retry.length, dropped: batch.length - retry.length });
        // Put retries back for the next flush (not this one: the database is likely still failing).
        this.pending.unshift(...retry);
        return;
      }
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

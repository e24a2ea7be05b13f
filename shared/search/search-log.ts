import { insertIsolating } from '../platform/db/insert-isolating.js';
import type { Logger } from '../platform/logger.js';
import { rowsRefused } from '../platform/metrics.js';
import type { SearchLogRow } from './search-log.repo.js';

/**
 * Buffers search log rows in memory and writes them in one statement per flush (every
 * `everyMs` or at `maxRows`), so a search never waits on the log. A row Postgres refuses for its
 * data (class 22/23) is isolated and dropped (one error line each, counted in
 * pss_buffered_rows_refused_total) and the batch's other rows are written; a batch failing for any
 * other reason (Postgres down) is dropped with a warning.
 */
export class SearchLogWriter {
  private rows: SearchLogRow[] = [];
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private insertMany: (rows: SearchLogRow[]) => Promise<void>,
    private logger: Logger,
    private everyMs = 1000,
    private maxRows = 500,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.everyMs);
    this.timer.unref();
  }

  push(row: SearchLogRow): void {
    this.rows.push(row);
    if (this.rows.length >= this.maxRows) void this.flush();
  }

  /**
   * Writes what is buffered now; resolves after this and every earlier flush finished (a flush
   * called while the timer's is writing waits for it: a caller that flushed sees its rows stored).
   */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private async write(): Promise<void> {
    if (!this.rows.length) return;
    const batch = this.rows;
    this.rows = [];
    const { refused, failed } = await insertIsolating(batch, this.insertMany);
    for (const { row, err } of refused) {
      rowsRefused.inc({ table: 'search_log' });
      this.logger.error('search log row refused by the database; dropped', { err, tenant_id: row.tenant_id, id: row.id });
    }
    if (failed) this.logger.warn('search log flush failed; rows dropped', { err: failed.err, rows: failed.rows.length });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}

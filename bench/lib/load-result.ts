/** What one closed-loop HTTP load measured (latencies in ms). */
export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** Per group, when requests name one (`next(i).group`): interleaved loads measured apart. */
  groups?: Record<string, LoadResult>;
}

// Timing helpers for the benchmarks: a monotonic clock, rates measured over a time window after a warm-up,
// medians. `performance.now()` is allowed here (bench/ only); nothing a run does depends on it.

/** Milliseconds from an arbitrary origin. */
export function nowMs(): number {
  return performance.now();
}

/** The wall-clock time of a report, for its header only. */
export function timestamp(): string {
  return new Date().toISOString();
}

/** A throughput measured over a window: how many units of work per second. */
export interface Rate {
  /** Units of work done in the measured window (after the warm-up). */
  readonly units: number;
  /** Batches (calls of the body) in the measured window. */
  readonly batches: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
}

/**
 * Calls `body` repeatedly, first for `warmupMs` (JIT warm-up, not counted), then for `measureMs`, and reports
 * the units of work per second. `body` returns the units it did (steps, transitions, runs...).
 */
export function measureRate(body: (batch: number) => number, options: { warmupMs: number; measureMs: number }): Rate {
  let batch = 0;
  const warmupEnd = nowMs() + options.warmupMs;
  while (nowMs() < warmupEnd) body(batch++);
  let units = 0;
  let batches = 0;
  const started = nowMs();
  let elapsedMs = 0;
  while (elapsedMs < options.measureMs) {
    units += body(batch++);
    batches += 1;
    elapsedMs = nowMs() - started;
  }
  return { units, batches, elapsedMs, perSecond: (units * 1000) / elapsedMs };
}

/** The asynchronous form of {@link measureRate}, for bodies that await (the engine's API is async). */
export async function measureRateAsync(body: (batch: number) => Promise<number>, options: { warmupMs: number; measureMs: number }): Promise<Rate> {
  let batch = 0;
  const warmupEnd = nowMs() + options.warmupMs;
  while (nowMs() < warmupEnd) await body(batch++);
  let units = 0;
  let batches = 0;
  const started = nowMs();
  let elapsedMs = 0;
  while (elapsedMs < options.measureMs) {
    units += await body(batch++);
    batches += 1;
    elapsedMs = nowMs() - started;
  }
  return { units, batches, elapsedMs, perSecond: (units * 1000) / elapsedMs };
}

/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A rate or count as a person reads it: 1.23 M, 456 K, 789. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return `${(value / 1e6).toFixed(2)} M`;
  if (magnitude >= 1e4) return `${(value / 1e3).toFixed(0)} K`;
  if (magnitude >= 1e3) return `${(value / 1e3).toFixed(1)} K`;
  return value.toFixed(value >= 100 || Number.isInteger(value) ? 0 : 1);
}

/** Milliseconds as a person reads them. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** A ratio as a person reads it. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return String(ratio);
  if (ratio >= 100) return `${ratio.toFixed(0)}×`;
  if (ratio >= 10) return `${ratio.toFixed(1)}×`;
  return `${ratio.toFixed(2)}×`;
}

/** "pass" or "miss" for a speed target; a bench never fails on one. */
export function verdict(met: boolean): 'pass' | 'miss' {
  return met ? 'pass' : 'miss';
}

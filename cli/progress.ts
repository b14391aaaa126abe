// The fuzz's progress line on a terminal: runs, steps per second, properties found so far, time left. Drawn in
// place on stderr, at most a few times a second, and only when stderr is a TTY (never in CI logs or with --json).

import type { FuzzProgress } from '../sim/search/fuzz.ts';

/** Where the line goes: a terminal stream. */
export interface ProgressSink {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

/** Redraws at most this often, in ms of the fuzz's own elapsed time. */
const REDRAW_EVERY_MS = 200;

/** The line for one progress report. */
export function progressLine(progress: FuzzProgress): string {
  const seconds = progress.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(progress.steps / seconds) : 0;
  const left = progress.remainingMs === null ? '' : `, ${Math.ceil(progress.remainingMs / 1000)} s left`;
  const what = progress.phase === 'shrink' ? 'shrinking' : 'fuzzing';
  return `${what}: ${progress.runs} runs, ${rate} steps/s, ${progress.found} ${progress.found === 1 ? 'property' : 'properties'} violated so far${left}`;
}

/** A progress reporter, or null when the sink is no terminal (nothing is drawn then). */
export function createProgress(sink: ProgressSink): { update(progress: FuzzProgress): void; clear(): void } | null {
  if (sink.isTTY !== true) return null;
  let drawnMs = -Infinity;
  let drawn = false;
  return {
    update(progress) {
      if (progress.elapsedMs - drawnMs < REDRAW_EVERY_MS) return;
      drawnMs = progress.elapsedMs;
      const width = Math.max(20, (sink.columns ?? 80) - 1);
      sink.write(`\r\u001b[2K${progressLine(progress).slice(0, width)}`);
      drawn = true;
    },
    clear() {
      if (drawn) sink.write('\r\u001b[2K');
      drawn = false;
    },
  };
}

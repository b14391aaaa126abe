// A phase of check-store, whichever: the engine's fuzz of one target in this thread (sim/search/fuzz.ts), driven as
// the check drives it: stopped by an interruption, handed over to a fresh worker once the CLI's is worn or has made
// its share of runs (paused at a checkpoint the next call goes on from), and its search ended on a run its phase says
// is the last (a store call that never settled, a run the store made fail).

import { type FuzzCheckpoint, type FuzzExecutor, type FuzzOptions, type FuzzOutcome, fuzzWith } from '../sim/search/fuzz.ts';

/** How the check drives a phase. */
export interface PhaseControl {
  /** Asked between runs and shrinks: true stops the phase (what it found is kept, unshrunk). */
  readonly stopped?: () => boolean;
  /** Runs this call makes at the most before it returns its progress (the CLI recycles its worker then); default all. */
  readonly runsNow?: number;
  /**
   * Asked after each run and shrink, after the first of this call: true returns the progress so far, not done, for a
   * fresh thread to go on from (the CLI's worker, when it sees its memory or its open handles grow).
   */
  readonly pause?: () => boolean;
  /** Told of the first run that violates each property by a mechanism of its own, as soon as it is found (unshrunk). */
  readonly onFound?: FuzzOptions['onFound'];
}

/** What a phase asks of the fuzz, beyond how it is driven: its target, runs, properties and hooks. */
export type PhaseFuzz = Omit<FuzzOptions, 'timeMs' | 'stopAtFirst' | 'signal' | 'resume' | 'pause' | 'lastRun' | 'onFound'>;

/**
 * Fuzzes a phase's target from `resume` (null: from the start), every violation of every run looked for; `endsSearch`
 * is asked after each run of the search with its number and says whether it is the last.
 */
export function fuzzPhase(control: PhaseControl, resume: FuzzCheckpoint | null, options: PhaseFuzz, endsSearch: (run: number) => boolean, executor: FuzzExecutor): Promise<FuzzOutcome> {
  // Runs are made in order in this thread: the search's k-th run of this call is run `next + k`.
  let run = resume?.next ?? 0;
  const first = run;
  const abort = new AbortController();
  return fuzzWith(
    {
      ...options,
      ...(control.onFound === undefined ? {} : { onFound: control.onFound }),
      timeMs: null,
      stopAtFirst: false,
      signal: abort.signal,
      resume,
      pause: () => {
        if (control.stopped?.() === true) abort.abort();
        return control.pause?.() === true || (control.runsNow !== undefined && run - first >= control.runsNow);
      },
      lastRun: () => {
        run += 1;
        return endsSearch(run);
      },
    },
    executor,
  );
}

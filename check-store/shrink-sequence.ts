// Shrinking a failing run against any predicate. A step is kept as its choice (an index into the enabled operations)
// and the key of the operation it picked (kind and operands): when an earlier step is removed, the enabled list of a
// later step shifts, and the key finds the same operation again where a bare index would pick another. Chunks are
// removed (halves, quarters, ... single steps), then single choices lowered toward 0 (dropping the key), until nothing
// more goes or a bound is spent (evaluations, or a budget of the caller's such as call timeouts waited).

/** One step of a run: the index picked, and the key of the operation it was (null: use the index). */
export interface KeyedChoice {
  readonly choice: number;
  readonly key: string | null;
}

/** The outcome of a shrink. */
export interface SequenceShrink {
  readonly steps: readonly KeyedChoice[];
  readonly originalLength: number;
  /** Predicate evaluations made (the first, re-running `initial`, counted unless it was known to fail). */
  readonly evaluations: number;
  /** True when {@link ShrinkSequenceOptions.spent} stopped the shrink before it had tried every candidate. */
  readonly cut: boolean;
}

/** How a shrink may be told what is known and when to stop besides its evaluation bound. */
export interface ShrinkSequenceOptions {
  /**
   * True when `initial` is known to fail (the run that found it just took these steps, and its verdict cannot be
   * doubted, as with a call that outlasted the call timeout): it is not re-run first.
   */
  readonly initialFails?: boolean;
  /** Asked before each candidate: true stops the shrink there (a budget of real time spent, such as call timeouts). */
  readonly spent?: () => boolean;
}

/** Picks the step's operation: the one with the step's key if it is enabled, else the index modulo the count. */
export function pickKeyed(step: KeyedChoice, count: number, keyAt: (index: number) => string): number {
  if (step.key !== null) {
    for (let index = 0; index < count; index += 1) if (keyAt(index) === step.key) return index;
  }
  return step.choice % count;
}

/**
 * Shrinks `initial`. `fails` runs a candidate and returns the steps it took (index and key of each operation picked)
 * when it still fails, else null. Returns null when `initial` itself does not fail again: the finding did not
 * reproduce (a flaky store, or one with real timing), which the caller reports as such.
 */
export async function shrinkSequence(
  initial: readonly KeyedChoice[],
  fails: (candidate: readonly KeyedChoice[]) => Promise<readonly KeyedChoice[] | null>,
  evaluationsMax: number,
  options: ShrinkSequenceOptions = {},
): Promise<SequenceShrink | null> {
  const known = options.initialFails === true;
  let evaluations = known ? 0 : 1;
  let current = known ? initial : await fails(initial);
  if (current === null) return null;
  let cut = false;
  const attempt = async (candidate: readonly KeyedChoice[]): Promise<boolean> => {
    if (evaluations >= evaluationsMax || cut) return false;
    if (options.spent?.() === true) {
      cut = true;
      return false;
    }
    evaluations += 1;
    const taken = await fails(candidate);
    if (taken === null || taken.length > candidate.length) return false;
    current = taken;
    return true;
  };
  let improved = true;
  while (improved && evaluations < evaluationsMax && !cut) {
    improved = false;
    for (let size = Math.max(1, Math.floor(current.length / 2)); size >= 1; size = size === 1 ? 0 : Math.max(1, Math.floor(size / 2))) {
      // Aligned chunks from the end: later steps usually matter least, and each size costs about length/size runs.
      for (let start = current.length - size; start >= 0; start -= size) {
        if (start + size > current.length) continue;
        if (await attempt([...current.slice(0, start), ...current.slice(start + size)])) improved = true;
      }
    }
    for (let index = 0; index < current.length; index += 1) {
      const { choice } = current[index]!;
      for (const lower of [0, Math.floor(choice / 2), choice - 1]) {
        if (lower < 0 || lower >= choice) continue;
        const candidate = [...current];
        candidate[index] = { choice: lower, key: null };
        if (await attempt(candidate)) {
          improved = true;
          break;
        }
      }
    }
  }
  return { steps: current, originalLength: initial.length, evaluations, cut };
}

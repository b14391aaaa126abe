// Shrinking a failing run against any predicate. A step is kept as its choice (an index into the enabled operations)
// and the key of the operation it picked (kind and operands): when an earlier step is removed, the enabled list of a
// later step shifts, and the key finds the same operation again where a bare index would pick another. Chunks are
// removed (halves, quarters, ... single steps), then single choices lowered toward 0 (dropping the key), until nothing
// more goes or the bound is spent.

/** One step of a run: the index picked, and the key of the operation it was (null: use the index). */
export interface KeyedChoice {
  readonly choice: number;
  readonly key: string | null;
}

/** The outcome of a shrink. */
export interface SequenceShrink {
  readonly steps: readonly KeyedChoice[];
  readonly originalLength: number;
  /** Predicate evaluations made. */
  readonly evaluations: number;
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
): Promise<SequenceShrink | null> {
  let evaluations = 1;
  let current = await fails(initial);
  if (current === null) return null;
  const attempt = async (candidate: readonly KeyedChoice[]): Promise<boolean> => {
    if (evaluations >= evaluationsMax) return false;
    evaluations += 1;
    const taken = await fails(candidate);
    if (taken === null || taken.length > candidate.length) return false;
    current = taken;
    return true;
  };
  let improved = true;
  while (improved && evaluations < evaluationsMax) {
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
  return { steps: current, originalLength: initial.length, evaluations };
}

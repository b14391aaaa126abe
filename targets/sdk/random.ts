// The SDK's own sources of nondeterminism (crypto.randomUUID for POST stream IDs, Date.now and Math.random in
// the example InMemoryEventStore) replaced, for the length of one run, by functions driven from the run's seed.

import seedrandom from 'seedrandom';

/** The fake clock's first reading: 2026-01-01T00:00:00Z. */
export const CLOCK_EPOCH_MS = 1_767_225_600_000;

const PATCH_MARK = Symbol.for('resumecheck.sdk-globals');

/** The patched globals of one run. */
export interface PatchedGlobals {
  /** Puts the original globals back. Idempotent: safe to call twice, and must be called in `finally`. */
  restore(): void;
  /** True once {@link PatchedGlobals.restore} ran. */
  readonly restored: boolean;
}

interface Saved {
  readonly randomUuid: PropertyDescriptor | undefined;
  readonly dateNow: PropertyDescriptor;
  readonly mathRandom: PropertyDescriptor;
}

function requireDescriptor(target: object, key: string): PropertyDescriptor {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) throw new Error(`assertion: global ${key} has no own property descriptor to save`);
  return descriptor;
}

function hexOf(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/** A version-4-shaped UUID from four 32-bit draws. */
function uuidFrom(prng: seedrandom.PRNG): string {
  const hex = hexOf(prng.int32()) + hexOf(prng.int32()) + hexOf(prng.int32()) + hexOf(prng.int32());
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Replaces `crypto.randomUUID`, `Date.now` and `Math.random` with functions seeded from `seed`, each from its
 * own PRNG stream so a foreign caller of one does not shift the others.
 *
 * The clock starts at {@link CLOCK_EPOCH_MS} and each reading advances it by 0 or 1 ms (a draw): like a real
 * millisecond clock, two readings may be equal. A strictly increasing clock would hide every defect that needs
 * two events stamped in the same millisecond (the example store orders events by a string containing the time).
 *
 * Only one run may hold the globals at a time: patching twice throws. Callers must call `restore` in `finally`.
 */
export function patchSdkGlobals(seed: string): PatchedGlobals {
  if ((Date.now as unknown as Record<symbol, unknown>)[PATCH_MARK] === true) {
    throw new Error('assertion: the SDK globals are already patched by another run; close that run (in finally) first');
  }
  const saved: Saved = {
    randomUuid: Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID'),
    dateNow: requireDescriptor(Date, 'now'),
    mathRandom: requireDescriptor(Math, 'random'),
  };
  const uuidPrng = seedrandom(`${seed}/sdk/randomUUID`);
  const clockPrng = seedrandom(`${seed}/sdk/Date.now`);
  const mathPrng = seedrandom(`${seed}/sdk/Math.random`);
  let clockMs = CLOCK_EPOCH_MS;

  const randomUuid = (): string => uuidFrom(uuidPrng);
  const dateNow = (): number => {
    clockMs += clockPrng() < 0.5 ? 0 : 1;
    return clockMs;
  };
  const mathRandom = (): number => mathPrng();
  Object.defineProperty(dateNow, PATCH_MARK, { value: true });

  Object.defineProperty(globalThis.crypto, 'randomUUID', { value: randomUuid, configurable: true, writable: true, enumerable: true });
  Object.defineProperty(Date, 'now', { ...saved.dateNow, value: dateNow });
  Object.defineProperty(Math, 'random', { ...saved.mathRandom, value: mathRandom });

  let restored = false;
  return {
    get restored() {
      return restored;
    },
    restore() {
      if (restored) return;
      restored = true;
      if (saved.randomUuid === undefined) {
        delete (globalThis.crypto as unknown as Record<string, unknown>)['randomUUID'];
      } else {
        Object.defineProperty(globalThis.crypto, 'randomUUID', saved.randomUuid);
      }
      Object.defineProperty(Date, 'now', saved.dateNow);
      Object.defineProperty(Math, 'random', saved.mathRandom);
    },
  };
}

/** The global functions {@link patchSdkGlobals} replaces, as they are now (for checking that they were restored). */
export function sdkGlobals(): { readonly randomUuid: unknown; readonly dateNow: unknown; readonly mathRandom: unknown } {
  return { randomUuid: globalThis.crypto.randomUUID, dateNow: Date.now, mathRandom: Math.random };
}

/**
 * The ambient clock and randomness an example store of the SDK's repositories reads (`Date.now`, `Math.random`): the
 * patched functions while an SDK run holds the globals, so a store written here draws exactly what the example
 * draws, from the run's seed.
 */
export const SDK_AMBIENT: { readonly now: () => number; readonly random: () => number } = {
  now: () => Date.now(),
  random: () => Math.random(),
};

// The simulator's only source of randomness: seeded PRNGs (Alea, as seedrandom 3.0.5 computes it: 6x cheaper to seed
// and 3x faster to draw from than seedrandom's default ARC4, measured here), one per purpose, so a run is a pure
// function of its seed and choices.

/** A seeded pseudo-random number generator. */
export interface Prng {
  /** A float in [0, 1). */
  float(): number;
  /** An integer in [0, bound). */
  below(bound: number): number;
  /** Where the sequence stands, as plain data (exploration keys worlds by it and snapshots it). */
  state(): unknown;
  /** Goes back to where {@link Prng.state} said the sequence stood. */
  restore(state: unknown): void;
}

/**
 * Baagøe's Mash, as seedrandom 3.0.5's Alea seeds with it: folds `data` into the running hash `mashState`, and returns
 * the hash as a float in [0, 1). One function, no closure: a run seeds several PRNGs, and seeding was most of their cost.
 */
let mashState = 0;
function mash(data: string): number {
  let n = mashState;
  for (let index = 0; index < data.length; index += 1) {
    n += data.charCodeAt(index);
    let h = 0.02519603282416938 * n;
    n = h >>> 0;
    h -= n;
    h *= n;
    n = h >>> 0;
    h -= n;
    n += h * 0x100000000;
  }
  mashState = n;
  return (n >>> 0) * 2.3283064365386963e-10;
}

/** Alea's start before its seed: three hashes of ' ' from Mash's initial state, the same for every seed. */
mashState = 0xefc8249d;
const SPACE = [mash(' '), mash(' '), mash(' ')] as const;
const AFTER_SPACES = mashState;

/** Alea's state, as seedrandom's `state()` gives it (and snapshots and exploration keys hold it): c, s0, s1, s2. */
interface AleaState {
  readonly c: number;
  readonly s0: number;
  readonly s1: number;
  readonly s2: number;
}

/**
 * Baagøe's Alea, computing what seedrandom 3.0.5's `alea` does, number for number (sim/prng.test.ts compares them),
 * without the closures it makes for every generator.
 */
class AleaPrng implements Prng {
  private c = 1;
  private s0: number;
  private s1: number;
  private s2: number;
  /** The state last restored (or read), while nothing has been drawn since: restoring it again changes nothing. */
  private standing: AleaState | null = null;

  constructor(seed: string) {
    mashState = AFTER_SPACES;
    let s0 = SPACE[0] - mash(seed);
    if (s0 < 0) s0 += 1;
    let s1 = SPACE[1] - mash(seed);
    if (s1 < 0) s1 += 1;
    let s2 = SPACE[2] - mash(seed);
    if (s2 < 0) s2 += 1;
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
  }

  private next(): number {
    const t = 2091639 * this.s0 + this.c * 2.3283064365386963e-10;
    this.s0 = this.s1;
    this.s1 = this.s2;
    this.c = t | 0;
    this.s2 = t - this.c;
    return this.s2;
  }

  state(): unknown {
    const state: AleaState = { c: this.c, s0: this.s0, s1: this.s1, s2: this.s2 };
    this.standing = state;
    return state;
  }

  restore(state: unknown): void {
    // The exhaustive search restores one world for each of its actions, and most steps draw nothing.
    if (state === this.standing) return;
    const alea = state as AleaState;
    this.c = alea.c;
    this.s0 = alea.s0;
    this.s1 = alea.s1;
    this.s2 = alea.s2;
    this.standing = alea;
  }

  float(): number {
    this.standing = null;
    return this.next();
  }

  below(bound: number): number {
    this.standing = null;
    return Math.floor(this.next() * bound);
  }
}

/** A PRNG from a seed string; the same seed always gives the same sequence. */
export function createPrng(seed: string): Prng {
  return new AleaPrng(seed);
}

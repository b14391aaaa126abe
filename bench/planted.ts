// Figure 3: for each planted target, over seeds '1'..'N', the time to the first counterexample (the fuzz's
// search loop, without shrinking) and the shrunk length against the known minimum of bench/minima.ts.

import type { PropertyName } from '../properties/names.ts';
import { checkedProperties } from '../properties/index.ts';
import { sequenceChoices } from '../sim/choices.ts';
import type { SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { fuzz } from '../sim/search/fuzz.ts';
import { shrinkChoices } from '../sim/shrink/shrink.ts';
import type { Target } from '../targets/target.ts';
import { findFirstCounterexample } from './first-counterexample.ts';
import { nowMs } from './measure.ts';
import { type KnownMinimum, MINIMA } from './minima.ts';

/** One seed's search and shrink. */
export interface PlantedSeed {
  readonly seed: string;
  readonly found: boolean;
  readonly runs: number;
  readonly msToFirst: number;
  readonly property: PropertyName | null;
  readonly originalLength: number | null;
  readonly shrunkLength: number | null;
  readonly shrinkEvaluations: number | null;
  readonly shrinkMs: number | null;
  /** The known minimum of the property found (exact, or a lower bound when only a range is known). */
  readonly minimum: KnownMinimum | null;
}

/** What replaying a recorded minimum's witness gives today. */
export interface WitnessCheck {
  readonly property: PropertyName;
  readonly length: number | null;
  /** True when the witness still violates its property after exactly its own length of steps. */
  readonly replays: boolean;
  readonly got: string;
}

/** Does `fuzz()` itself agree with the timed loop (same finding run, same property) on the first seed? */
export interface FuzzFidelity {
  readonly seed: string;
  readonly agrees: boolean;
  readonly fuzzRun: number | null;
  readonly fuzzProperty: PropertyName | null;
  readonly fuzzShrunkLength: number | null;
}

/** Everything measured for one planted target. */
export interface PlantedResult {
  readonly target: string;
  readonly breaks: readonly PropertyName[];
  readonly seeds: readonly PlantedSeed[];
  readonly witnesses: readonly WitnessCheck[];
  readonly fidelity: FuzzFidelity;
}

/** Replays each recorded witness of `target`'s minima: still the same property, still the same length? */
export async function checkWitnesses(target: Target, config: SimConfig): Promise<WitnessCheck[]> {
  const known = MINIMA[target.name];
  if (known === undefined) return [];
  const checks: WitnessCheck[] = [];
  for (const minimum of known.minima) {
    if (minimum.witness === null) continue;
    // A minimum is the property's checked alone (bench/minima.ts): another may fire first in a run that checks them all.
    const result = await runSimulation(target, config, sequenceChoices(minimum.witness), checkedProperties(minimum.property));
    const replays = result.violation?.property === minimum.property && result.choices.length === minimum.witness.length;
    const got = result.violation === null ? 'no violation' : `${result.violation.property} after ${result.choices.length} steps`;
    checks.push({ property: minimum.property, length: minimum.length, replays, got });
  }
  return checks;
}

/** The known minimum of `property` for `target`, if derived. */
export function minimumOf(target: string, property: PropertyName): KnownMinimum | null {
  return MINIMA[target]?.minima.find((minimum) => minimum.property === property) ?? null;
}

/** Measures one planted target over `seeds` seeds. */
export async function measurePlanted(
  target: Target,
  config: SimConfig,
  options: { seeds: number; runsMax: number; timeMs: number },
): Promise<PlantedResult> {
  const seeds: PlantedSeed[] = [];
  for (let index = 1; index <= options.seeds; index += 1) {
    const seed = String(index);
    const first = await findFirstCounterexample(target, { ...config, seed }, { runsMax: options.runsMax, timeMs: options.timeMs });
    if (first.result === null || first.config === null) {
      seeds.push({ seed, found: false, runs: first.runs, msToFirst: first.elapsedMs, property: null, originalLength: null, shrunkLength: null, shrinkEvaluations: null, shrinkMs: null, minimum: null });
      continue;
    }
    const property = first.result.violation!.property;
    const started = nowMs();
    const shrink = await shrinkChoices(target, first.config, first.result.choices, property);
    const shrinkMs = nowMs() - started;
    seeds.push({
      seed,
      found: true,
      runs: first.runs,
      msToFirst: first.elapsedMs,
      property,
      originalLength: first.result.choices.length,
      shrunkLength: shrink.choices.length,
      shrinkEvaluations: shrink.evaluations,
      shrinkMs,
      minimum: minimumOf(target.name, property),
    });
  }
  const witnesses = await checkWitnesses(target, config);
  // fuzz() must make the same search the timed loop makes, or the timings measure something else.
  const firstSeed = seeds[0];
  const outcome = await fuzz({ target, config: { ...config, seed: '1' }, runsMax: options.runsMax, timeMs: null });
  const finding = outcome.finding;
  const fidelity: FuzzFidelity = {
    seed: '1',
    agrees:
      firstSeed !== undefined &&
      (finding === null ? !firstSeed.found : firstSeed.found && finding.run === firstSeed.runs && finding.original.violation?.property === firstSeed.property),
    fuzzRun: finding?.run ?? null,
    fuzzProperty: finding?.original.violation?.property ?? null,
    fuzzShrunkLength: finding?.shrink.choices.length ?? null,
  };
  return { target: target.name, breaks: target.breaks, seeds, witnesses, fidelity };
}

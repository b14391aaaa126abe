// Offline: derives the known minimum counterexample length of each planted target, the constants of
// bench/minima.ts. Not part of `npm run bench` (it can take many minutes); run it by hand:
//
//   npx tsx bench/derive-minima.ts [--targets a,b] [--properties p,q] [--runs-max 3000000] [--depth-max 9] [--seeds 20] [--json FILE]
//
// (--properties adds properties to derive besides the target's breaks and the seeds' findings.)
//
// For each planted target, under the bench's config (DEFAULT_CONFIG):
//  1. `explore()` (sim/search/explore.ts, exhaustive, shortest first) gives the shortest violating choice sequence of
//     any property: the target's overall minimum, and the minimum of the property it violates.
//  2. The properties worth a minimum of their own are the target's `breaks` and every property the bench's
//     seeds ('1'..'20') find first; for each, an exhaustive search restricted to that property gives its
//     minimum. The restricted search is `exploreProperty` below, not `explore(..., { only })`, because the
//     latter prunes every prefix that violates anything, also when the violation was found only in the
//     liveness phase that follows the prefix; the prefix's extensions run a different liveness phase and may
//     violate the property sought, so pruning them can miss its minimum. `explore({ only })` is run as well and
//     any disagreement is printed.
//  3. When a search runs out of its run budget, what is known is a range: the depth cleared + 1 (lower bound)
//     and the shortest shrunk counterexample the seeds found (upper bound, with its choices as a witness).

import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { PROPERTY_NAMES, type PropertyName, isPropertyName } from '../properties/names.ts';
import { DEFAULT_CONFIG, type SimConfig } from '../sim/config.ts';
import { explore } from '../sim/search/explore.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { shrinkChoices } from '../sim/shrink/shrink.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import type { Target } from '../targets/target.ts';
import { renderSteps } from '../traces/trace.ts';
import { exploreProperty } from './explore-property.ts';
import { findFirstCounterexample } from './first-counterexample.ts';
import { nowMs } from './measure.ts';
import type { KnownMinimum } from './minima.ts';

/** One property's minimum for one target, as derived: what bench/minima.ts records, and how the search went. */
export interface DerivedMinimum extends KnownMinimum {
  /** What `explore(..., { only })` said, when it disagreed. */
  readonly exploreOnlyDisagrees: string | null;
  readonly ms: number;
}

/** Everything derived for one target. */
export interface DerivedTarget {
  readonly target: string;
  readonly breaks: readonly PropertyName[];
  readonly overall: { readonly property: PropertyName | null; readonly choices: readonly number[] | null; readonly runs: number; readonly depthCleared: number; readonly ms: number };
  /** First-found property per seed '1'..'N', with its shrunk length. */
  readonly seeds: readonly { readonly seed: string; readonly property: PropertyName | null; readonly shrunk: readonly number[] | null }[];
  readonly minima: readonly DerivedMinimum[];
}

async function deriveTarget(
  target: Target,
  config: SimConfig,
  options: { runsMax: number; depthMax: number; seeds: number; properties: readonly PropertyName[] },
): Promise<DerivedTarget> {
  const log = (line: string) => process.stderr.write(`[${target.name}] ${line}\n`);
  let started = nowMs();
  const overall = await explore(target, config, { depthMax: options.depthMax, runsMax: options.runsMax });
  const overallMs = nowMs() - started;
  log(`explore(): ${overall.property ?? 'none'} at length ${overall.choices?.length ?? '-'} (${overall.runs} runs, depth cleared ${overall.depthCleared}, ${(overallMs / 1000).toFixed(1)} s)`);

  const seeds: { seed: string; property: PropertyName | null; shrunk: readonly number[] | null }[] = [];
  for (let index = 1; index <= options.seeds; index += 1) {
    const seed = String(index);
    const first = await findFirstCounterexample(target, { ...config, seed }, { runsMax: 20_000, timeMs: null });
    if (first.result === null || first.config === null) {
      seeds.push({ seed, property: null, shrunk: null });
      continue;
    }
    const property = first.result.violation!.property;
    const shrink = await shrinkChoices(target, first.config, first.result.choices, property);
    seeds.push({ seed, property, shrunk: shrink.choices });
  }
  log(`seeds: ${seeds.map((entry) => `${entry.seed}:${entry.property ?? '-'}/${entry.shrunk?.length ?? '-'}`).join(' ')}`);

  const wanted = new Set<PropertyName>([...target.breaks, ...options.properties]);
  for (const entry of seeds) if (entry.property !== null) wanted.add(entry.property);
  if (overall.property !== null) wanted.add(overall.property);

  const minima: DerivedMinimum[] = [];
  for (const property of PROPERTY_NAMES) {
    if (!wanted.has(property)) continue;
    started = nowMs();
    const bestShrunk = seeds
      .filter((entry) => entry.property === property && entry.shrunk !== null)
      .map((entry) => entry.shrunk!)
      .sort((left, right) => left.length - right.length)[0] ?? null;
    if (overall.property === property && overall.choices !== null) {
      // The overall minimum violates this property and nothing shorter violates anything: it is this one's too.
      minima.push({ property, length: overall.choices.length, lowerBound: overall.choices.length, upperBound: overall.choices.length, witness: overall.choices, runs: overall.runs, depthCleared: overall.depthCleared, exploreOnlyDisagrees: null, ms: overallMs });
      continue;
    }
    // Nothing shorter than the overall minimum violates anything, so the search may start at its length.
    const depthFrom = overall.choices?.length ?? 1;
    const search = await exploreProperty(target, config, { property, depthMax: options.depthMax, runsMax: options.runsMax, depthFrom });
    const exactLength = search.choices?.length ?? null;
    // The cross-check only means something when the exact search finished; with both out of budget it costs twice for nothing.
    let disagrees: string | null = null;
    if (!search.exhausted) {
      const only = await explore(target, config, { depthMax: options.depthMax, runsMax: options.runsMax, only: property });
      const onlyLength = only.choices?.length ?? null;
      if (onlyLength !== exactLength) disagrees = `explore({ only }) gave ${onlyLength ?? 'nothing'} (${only.runs} runs, depth cleared ${only.depthCleared})`;
    }
    const lowerBound = search.choices === null ? search.depthCleared + 1 : search.choices.length;
    const upperBound = search.choices?.length ?? bestShrunk?.length ?? null;
    const minimum: DerivedMinimum = {
      property,
      length: exactLength,
      lowerBound,
      upperBound,
      witness: search.choices ?? bestShrunk,
      runs: search.runs,
      depthCleared: search.depthCleared,
      exploreOnlyDisagrees: disagrees,
      ms: nowMs() - started,
    };
    log(`${property}: ${exactLength ?? `[${lowerBound}..${upperBound ?? '?'}]`} (${search.runs} runs, depth cleared ${search.depthCleared}, ${(minimum.ms / 1000).toFixed(1)} s)${disagrees === null ? '' : `; ${disagrees}`}`);
    minima.push(minimum);
  }
  return {
    target: target.name,
    breaks: target.breaks,
    overall: { property: overall.property, choices: overall.choices, runs: overall.runs, depthCleared: overall.depthCleared, ms: overallMs },
    seeds,
    minima,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      targets: { type: 'string' },
      properties: { type: 'string' },
      'runs-max': { type: 'string', default: '3000000' },
      'depth-max': { type: 'string', default: '9' },
      seeds: { type: 'string', default: '20' },
      json: { type: 'string' },
    },
  });
  const names = values.targets?.split(',') ?? PLANTED_TARGETS.map((target) => target.name);
  const config: SimConfig = { ...DEFAULT_CONFIG };
  const properties = (values.properties?.split(',') ?? []).map((name) => {
    if (!isPropertyName(name)) throw new Error(`unknown property ${name}`);
    return name;
  });
  const options = { runsMax: Number(values['runs-max']), depthMax: Number(values['depth-max']), seeds: Number(values.seeds), properties };
  const derived: DerivedTarget[] = [];
  for (const name of names) {
    const target = PLANTED_TARGETS.find((candidate) => candidate.name === name);
    if (target === undefined) throw new Error(`unknown planted target ${name}`);
    const result = await deriveTarget(target, config, options);
    derived.push(result);
    for (const minimum of result.minima) {
      if (minimum.witness === null) continue;
      const trace = await recordTrace(target, config, minimum.witness, null);
      process.stdout.write(`\n== ${target.name} / ${minimum.property}: ${minimum.length ?? `[${minimum.lowerBound}..${minimum.upperBound}]`} ${JSON.stringify(minimum.witness)}\n`);
      process.stdout.write(`   verdict: ${JSON.stringify(trace.verdict)}\n`);
      for (const line of renderSteps(trace.steps, trace.level ?? null)) process.stdout.write(`${line}\n`);
    }
    if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify({ config, options, derived }, null, 2)}\n`);
  }
}

await main();

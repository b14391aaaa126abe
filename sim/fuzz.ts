// The fuzz loop: seeded random walks (uniform and swarm), stopping at the first violation, which is shrunk
// and recorded as a trace. Each run's seed is derived from the fuzz seed and the run's number.

import { PROPERTY_NAMES, type PropertyName } from '../properties/names.ts';
import type { Target } from '../targets/target.ts';
import { createActionList } from './actions.ts';
import { RESUMECHECK_VERSION, TRACE_FORMAT_VERSION, type Trace } from '../traces/trace.ts';
import { planWalk, sequenceChoices, walkChoices } from './choices.ts';
import { monotonicMs } from './clock.ts';
import type { SimConfig } from './config.ts';
import { type RunResult, runSimulation } from './engine.ts';
import { type ShrinkBounds, type ShrinkResult, DEFAULT_SHRINK_BOUNDS, NotReproducedError, shrinkChoices } from './shrink.ts';

/** What to fuzz and for how long. */
export interface FuzzOptions {
  readonly target: Target;
  /** The base config; each run gets its own seed derived from `config.seed`. */
  readonly config: SimConfig;
  /** Runs at the most. */
  readonly runsMax: number;
  /** Wall-clock budget in ms, or null; only decides when to stop, never what a run does. */
  readonly timeMs: number | null;
  readonly shrinkBounds?: ShrinkBounds;
  /** Check only these properties (default: all). */
  readonly properties?: readonly PropertyName[];
  /** Run only every `count`-th run, starting at run `index` (1-based): machines sharing a seed split the runs. */
  readonly shard?: { readonly index: number; readonly count: number };
  /**
   * Stop at the first violation (the default), or go on through the budget collecting one finding per property.
   * Each finding is the first violation of its run: a run whose first violation was already found is passed
   * over, rather than checked on past it, so consequences of one bug are not reported as further bugs.
   */
  readonly stopAtFirst?: boolean;
}

/** A violation found, shrunk and recorded. */
export interface Finding {
  /** 1-based number of the run that found it. */
  readonly run: number;
  readonly original: RunResult;
  readonly shrink: ShrinkResult;
  readonly trace: Trace;
  /**
   * The run violated the property, and re-running its choices (to shrink them) did not: real time decided it (a target
   * over the wire). The trace holds the unshrunk choices and the verdict of the run that found it.
   */
  readonly flaky?: boolean;
}

/** The outcome of a fuzz. */
export interface FuzzOutcome {
  readonly runs: number;
  readonly steps: number;
  /** The first finding, or null. */
  readonly finding: Finding | null;
  /** Every finding, one per property, in the order found. */
  readonly findings: readonly Finding[];
}

/** The seed of run `run` of a fuzz seeded with `seed`. */
export function runSeed(seed: string, run: number): string {
  return `${seed}.${run}`;
}

/** Re-runs `choices` with recording on and packs the result as a trace. */
export async function recordTrace(
  target: Target,
  config: SimConfig,
  choices: readonly number[],
  shrink: ShrinkResult | null,
  properties: readonly PropertyName[] | null = null,
): Promise<Trace> {
  const recorded = await runSimulation(target, config, sequenceChoices(choices), { record: true, ...(properties === null ? {} : { properties }) });
  return {
    format: 'resumecheck-trace',
    formatVersion: TRACE_FORMAT_VERSION,
    resumecheckVersion: RESUMECHECK_VERSION,
    target: target.name,
    config,
    properties: properties === null ? null : [...properties],
    seed: config.seed,
    choices: recorded.choices,
    steps: recorded.trace ?? [],
    verdict: recorded.violation,
    shrink: shrink === null ? null : { originalLength: shrink.originalLength, shrunkLength: recorded.choices.length, evaluations: shrink.evaluations },
  };
}

/** Fuzzes a target until a violation is found or the budget is spent. */
export async function fuzz(options: FuzzOptions): Promise<FuzzOutcome> {
  const { target, config } = options;
  const started = monotonicMs();
  let steps = 0;
  const actions = createActionList();
  const stopAtFirst = options.stopAtFirst ?? true;
  const checked = options.properties ?? null;
  const only = checked === null ? {} : { properties: checked };
  const findings: Finding[] = [];
  const found = new Set<PropertyName>();
  const outcome = (): FuzzOutcome => ({ runs, steps, finding: findings[0] ?? null, findings });
  const shard = options.shard ?? { index: 1, count: 1 };
  let runs = 0;
  for (let run = shard.index; runs < options.runsMax; run += shard.count) {
    if (options.timeMs !== null && runs > 0 && monotonicMs() - started >= options.timeMs) return outcome();
    runs += 1;
    const runConfig: SimConfig = { ...config, seed: runSeed(config.seed, run) };
    const result = await runSimulation(target, runConfig, walkChoices(planWalk(runConfig.seed, runConfig.stepsMax)), { ...only, actions });
    steps += result.steps + result.healSteps;
    if (result.violation === null) continue;
    const { property } = result.violation;
    if (found.has(property)) continue;
    found.add(property);
    let shrink: ShrinkResult;
    try {
      shrink = await shrinkChoices(target, runConfig, result.choices, property, options.shrinkBounds ?? DEFAULT_SHRINK_BOUNDS, only);
    } catch (error) {
      if (!(error instanceof NotReproducedError)) throw error;
      // Never a crash: the finding is reported as flaky, with the run's own verdict and its unshrunk choices.
      const unshrunk: ShrinkResult = { choices: result.choices, originalLength: result.choices.length, evaluations: 1 };
      const recorded = await recordTrace(target, runConfig, result.choices, null, checked);
      findings.push({ run, original: result, shrink: unshrunk, trace: { ...recorded, verdict: result.violation }, flaky: true });
      if (stopAtFirst) return outcome();
      continue;
    }
    const trace = await recordTrace(target, runConfig, shrink.choices, shrink, checked);
    findings.push({ run, original: result, shrink, trace });
    if (stopAtFirst || found.size === (checked ?? PROPERTY_NAMES).length) return outcome();
  }
  return outcome();
}

// The end-to-end phase: the store inside the real SDK transport (a module target), fuzzed with the simulator. The
// verdict is about the store, so it is differential: when the choices of a run violate a property on the module
// target, the same choices run on sdk-core (resumecheck's own store in the same transport). If sdk-core violates the
// property too, the transport is to blame: recorded once per property and the run goes on without that property.
// Otherwise the store is: shrunk with "violates P on the module target and not on sdk-core", recorded, and the phase stops.

import { PROPERTIES, PROPERTY_NAMES, type PropertyName } from '../properties/index.ts';
import { planWalk, sequenceChoices, walkChoices } from '../sim/choices.ts';
import { ACTION_KINDS, DEFAULT_CONFIG, type SimConfig, resolveConfig } from '../sim/config.ts';
import type { ActionList } from '../sim/actions.ts';
import { type ChoiceSource, type RunResult, runSimulation } from '../sim/engine.ts';
import { recordTrace, runSeed } from '../sim/fuzz.ts';
import { type ModuleTarget, type StoreSource, createModuleTarget } from '../targets/module/module.target.ts';
import { StoreModuleError, firstLine } from '../targets/module/store-module.ts';
import { sdkCoreTarget } from '../targets/sdk/index.ts';
import type { Target } from '../targets/target.ts';
import type { Trace } from '../traces/trace.ts';
import { type KeyedChoice, pickKeyed, shrinkSequence } from './shrink-sequence.ts';

/** Events each stream retains in this phase: more than any run stores, so sdk-core, the reference, never evicts. */
export const END_TO_END_WINDOW_EVENTS = 64;
/** Shrink evaluations of the end-to-end phase: each one is one or two runs of the SDK. */
export const END_TO_END_SHRINK_EVALUATIONS_MAX = 150;

/** What the end-to-end phase is asked to do. */
export interface EndToEndOptions {
  readonly shared: boolean;
  readonly runs: number;
  readonly seed: string;
  readonly shrinkEvaluationsMax?: number;
}

/** A property the transport itself breaks: sdk-core violates it on the same choices. */
export interface TransportDefect {
  readonly property: PropertyName;
  readonly statement: string;
  /** What the module target showed, in the run that found it. */
  readonly explanation: string;
  /** The run's seed, and the choices (unshrunk) that show it on both targets. */
  readonly seed: string;
  readonly choices: readonly number[];
}

/**
 * The store's violation found end to end, shrunk and recorded; a store call that hung; or a run the store made fail
 * (an error the SDK passes on to the server's code), shrunk, with its steps as action kinds (no trace can be recorded).
 */
export type EndToEndFinding =
  | { readonly kind: 'violation'; readonly run: number; readonly trace: Trace; readonly originalLength: number; readonly evaluations: number }
  | { readonly kind: 'hang'; readonly run: number; readonly seed: string; readonly explanation: string }
  | {
      readonly kind: 'failure';
      readonly run: number;
      readonly seed: string;
      readonly explanation: string;
      readonly steps: readonly string[];
      readonly choices: readonly number[];
      readonly originalLength: number;
      readonly evaluations: number;
    };

/** The outcome of the end-to-end phase. */
export interface EndToEndOutcome {
  readonly runs: number;
  readonly steps: number;
  readonly finding: EndToEndFinding | null;
  readonly transportDefects: readonly TransportDefect[];
}

/** The simulator's config of one end-to-end run. */
export function endToEndConfig(seed: string): SimConfig {
  return resolveConfig({ ...DEFAULT_CONFIG, seed, windowEventsMax: END_TO_END_WINDOW_EVENTS });
}

function statementOf(property: PropertyName): string {
  return PROPERTIES.find((candidate) => candidate.name === property)?.statement ?? property;
}

function keyAt(list: ActionList, index: number): string {
  return `${list.kind[index]}:${list.a[index]}:${list.b[index]}`;
}

/** One run's outcome: its result, or the error it failed with; and the keyed steps taken either way. */
interface KeyedRun {
  readonly result: RunResult | null;
  readonly error: unknown;
  readonly taken: KeyedChoice[];
}

/**
 * Runs a target from a random walk (`steps` null) or keyed steps, and records the key of each action taken, so a
 * shrink that removes a step finds the same later actions again (see shrink-sequence.ts). A run that fails (a store
 * error the SDK passes on to the server's code) is returned as its error; a user's bad module is thrown (bad input).
 */
async function runKeyed(target: Target, config: SimConfig, steps: readonly KeyedChoice[] | null, properties: readonly PropertyName[]): Promise<KeyedRun> {
  const walk = steps === null ? walkChoices(planWalk(config.seed, config.stepsMax)) : null;
  const taken: KeyedChoice[] = [];
  let next = 0;
  const source: ChoiceSource = {
    choose(world, list) {
      let choice: number | null;
      if (walk !== null) {
        choice = walk.choose(world, list);
      } else if (next < steps!.length) {
        choice = pickKeyed(steps![next]!, list.count, (index) => keyAt(list, index));
        next += 1;
      } else {
        choice = null;
      }
      if (choice !== null) taken.push({ choice, key: keyAt(list, choice) });
      return choice;
    },
  };
  try {
    return { result: await runSimulation(target, config, source, { properties }), error: null, taken };
  } catch (error) {
    if (error instanceof StoreModuleError) throw error;
    return { result: null, error, taken };
  }
}

/** The actions of keyed steps, as `kind a b`, for a run that failed before it could be recorded. */
export function describeKeyedSteps(steps: readonly KeyedChoice[]): string[] {
  return steps.map((step) => {
    const [kind, a, b] = (step.key ?? '').split(':').map(Number);
    return kind === undefined || Number.isNaN(kind) ? `choice ${step.choice}` : `${ACTION_KINDS[kind] ?? `kind ${kind}`} ${a} ${b}`;
  });
}

/** True when sdk-core completes a run of `choices` (the harness is fine; a failure on the module target is the store's). */
async function referenceCompletes(config: SimConfig, choices: readonly number[]): Promise<boolean> {
  try {
    await runSimulation(sdkCoreTarget, config, sequenceChoices(choices), { properties: [] });
    return true;
  } catch {
    return false;
  }
}

/** True when sdk-core violates `property` on `choices`. */
async function referenceViolates(config: SimConfig, choices: readonly number[], property: PropertyName): Promise<boolean> {
  const result = await runSimulation(sdkCoreTarget, config, sequenceChoices(choices), { properties: [property] });
  return result.violation?.property === property;
}

/** Runs the end-to-end phase against the store from `source`. */
export async function checkEndToEnd(source: StoreSource, options: EndToEndOptions): Promise<EndToEndOutcome> {
  const target: ModuleTarget = createModuleTarget(source, { shared: options.shared });
  const defects = new Map<PropertyName, TransportDefect>();
  let steps = 0;
  for (let run = 1; run <= options.runs; run += 1) {
    const config = endToEndConfig(runSeed(options.seed, run));
    // Properties the transport broke in this run are set aside for the rest of it, so the walk can go on.
    const checked = new Set<PropertyName>(PROPERTY_NAMES);
    for (let attempt = 0; attempt <= PROPERTY_NAMES.length; attempt += 1) {
      const { result, error, taken } = await runKeyed(target, config, null, [...checked]);
      const hangs = target.takeHangs();
      if (hangs.length > 0) {
        return { runs: run, steps, transportDefects: [...defects.values()], finding: { kind: 'hang', run, seed: config.seed, explanation: hangs[0]! } };
      }
      if (result === null) {
        const choices = taken.map((step) => step.choice);
        if (!(await referenceCompletes(config, choices))) {
          throw new Error(`end-to-end run ${config.seed} fails on ${target.name} and on sdk-core alike (a harness bug): ${firstLine(error)}`, { cause: error });
        }
        const shrink = await shrinkSequence(
          taken,
          async (candidate) => {
            const rerun = await runKeyed(target, config, candidate, [...checked]);
            target.takeHangs();
            if (rerun.result !== null) return null;
            return (await referenceCompletes(config, rerun.taken.map((step) => step.choice))) ? rerun.taken : null;
          },
          options.shrinkEvaluationsMax ?? END_TO_END_SHRINK_EVALUATIONS_MAX,
        );
        const rerun = await runKeyed(target, config, shrink.steps, [...checked]);
        target.takeHangs();
        return {
          runs: run,
          steps,
          transportDefects: [...defects.values()],
          finding: {
            kind: 'failure',
            run,
            seed: config.seed,
            explanation: `the run failed inside the SDK transport: ${firstLine(rerun.error ?? error)} (sdk-core completes the same steps)`,
            steps: describeKeyedSteps(rerun.taken),
            choices: rerun.taken.map((step) => step.choice),
            originalLength: shrink.originalLength,
            evaluations: shrink.evaluations,
          },
        };
      }
      if (result.violation === null) {
        steps += result.steps + result.healSteps;
        break;
      }
      const property = result.violation.property;
      if (await referenceViolates(config, result.choices, property)) {
        if (!defects.has(property)) {
          defects.set(property, { property, statement: statementOf(property), explanation: result.violation.explanation, seed: config.seed, choices: result.choices });
        }
        checked.delete(property);
        continue;
      }
      steps += result.steps + result.healSteps;
      const shrink = await shrinkSequence(
        taken,
        async (candidate) => {
          const rerun = await runKeyed(target, config, candidate, [property]);
          target.takeHangs();
          if (rerun.result?.violation?.property !== property) return null;
          return (await referenceViolates(config, rerun.result.choices, property)) ? null : rerun.taken;
        },
        options.shrinkEvaluationsMax ?? END_TO_END_SHRINK_EVALUATIONS_MAX,
      );
      const choices = shrink.steps.map((step) => step.choice);
      const trace = await recordTrace(target, config, choices, { choices, originalLength: shrink.originalLength, evaluations: shrink.evaluations }, [property]);
      target.takeHangs();
      if (trace.verdict?.property !== property) {
        throw new Error(`assertion: the recorded end-to-end run no longer violates ${property} (is the store deterministic?)`);
      }
      return {
        runs: run,
        steps,
        transportDefects: [...defects.values()],
        finding: { kind: 'violation', run, trace, originalLength: shrink.originalLength, evaluations: shrink.evaluations },
      };
    }
  }
  return { runs: options.runs, steps, finding: null, transportDefects: [...defects.values()] };
}

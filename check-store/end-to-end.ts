// The end-to-end phase: the store inside the real SDK transport (a module target), fuzzed with the simulator. The
// verdict is about the store, so it is differential: when a run violates a property on the module target, sdk-core
// (resumecheck's own store in the same transport) is driven through the same actions (kind and operands, step by
// step, not merely the same choice numbers). If sdk-core violates the property too, or cannot take the same actions,
// the transport is to blame (recorded once per property; the run goes on without that property). Otherwise the
// store is: shrunk with "violates P on the module target and not on sdk-core", recorded, and fuzzing goes on for
// other distinct violations, up to a bound per property.

import { PROPERTIES, PROPERTY_NAMES, type PropertyName } from '../properties/index.ts';
import { planWalk, walkChoices } from '../sim/choices.ts';
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
import { patchNodeCrypto } from './random.ts';

/** Events each stream retains in this phase: more than any run stores, so sdk-core, the reference, never evicts. */
export const END_TO_END_WINDOW_EVENTS = 64;
/** Shrink evaluations of the end-to-end phase: each one is one or two runs of the SDK. */
export const END_TO_END_SHRINK_EVALUATIONS_MAX = 150;
/** Distinct store violations reported per property at the most. */
export const END_TO_END_DISTINCT_MAX = 2;

/** Sizes of the simulated runs (defaults: the simulator's). */
export interface EndToEndSizes {
  readonly stepsMax?: number;
  /** Clients, one session each at a time. */
  readonly clients?: number;
  /** Calls (request streams) per session. */
  readonly callsPerSessionMax?: number;
}

/** What the end-to-end phase is asked to do. */
export interface EndToEndOptions {
  readonly shared: boolean;
  /** Storage and sessions outlive restarts: the phase then makes no restarts (the simulator's restart kills sessions). */
  readonly durable?: boolean;
  readonly runs: number;
  readonly seed: string;
  readonly callTimeoutMs?: number;
  readonly sizes?: EndToEndSizes;
  readonly shrinkEvaluationsMax?: number;
  /** Called with each finding as soon as it is made (the CLI writes its trace then). */
  readonly onFinding?: (finding: EndToEndFinding) => void | Promise<void>;
  /** Asked between runs: true stops the phase. */
  readonly stopped?: () => boolean;
  /** What an earlier part of the same check did (in another worker thread): go on from its next run; default none. */
  readonly progress?: EndToEndProgress | null;
  /** Runs this call makes at the most before it returns its progress (the CLI recycles its worker then); default all. */
  readonly runsNow?: number;
  /**
   * Asked between runs, after the first of this call: true returns the progress so far, not done, for a fresh
   * thread to go on from (the CLI's worker, when it sees its memory or its open handles grow).
   */
  readonly pause?: () => boolean;
}

/**
 * What the end-to-end phase has done so far: all it keeps across runs, so that another thread can go on from the next
 * run and reach the same findings (a run is a function of the seed and its number). Structured-cloneable.
 */
export interface EndToEndProgress {
  /** The number of the last run made (0: none yet), and the steps of the runs that completed. */
  readonly runs: number;
  readonly steps: number;
  /** True when the phase has ended (every run made, a hang or a failing run, or stopped). */
  readonly done: boolean;
  readonly findings: readonly EndToEndFinding[];
  readonly transportDefects: readonly TransportDefect[];
  /** Store findings per property, and the shrunk shapes seen. */
  readonly perProperty: ReadonlyArray<readonly [PropertyName, number]>;
  readonly shapes: readonly string[];
  readonly teardown: readonly string[];
}

/** A property the transport itself breaks: sdk-core violates it on the same actions (or cannot take them). */
export interface TransportDefect {
  readonly property: PropertyName;
  readonly statement: string;
  /** What the module target showed, in the run that found it. */
  readonly explanation: string;
  /** The run's seed, and the choices (unshrunk) that show it on both targets. */
  readonly seed: string;
  readonly choices: readonly number[];
  /** True when sdk-core violates it on the same actions; false when sdk-core could not take the same actions. */
  readonly reproducedOnSdkCore: boolean;
}

/**
 * The store's violation found end to end, shrunk and recorded (flaky when the shrunk run did not show it again); a
 * store call that hung; or a run the store made fail (an error the SDK passes on to the server's code), shrunk.
 */
export type EndToEndFinding =
  | {
      readonly kind: 'violation';
      readonly run: number;
      readonly trace: Trace;
      readonly originalLength: number;
      readonly evaluations: number;
      readonly flaky: { readonly reproduced: number; readonly reruns: number } | null;
    }
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
  readonly findings: readonly EndToEndFinding[];
  readonly transportDefects: readonly TransportDefect[];
  /** Teardown problems and calls that timed out without failing a run, the first few. */
  readonly teardown: readonly string[];
  /** All the phase keeps, to go on from in another call ({@link EndToEndOptions.progress}). */
  readonly progress: EndToEndProgress;
}

/** The simulator's config of one end-to-end run. */
export function endToEndConfig(seed: string, options: { readonly durable?: boolean; readonly sizes?: EndToEndSizes } = {}): SimConfig {
  const sizes = options.sizes ?? {};
  return resolveConfig({
    ...DEFAULT_CONFIG,
    seed,
    windowEventsMax: END_TO_END_WINDOW_EVENTS,
    ...(sizes.stepsMax === undefined ? {} : { stepsMax: sizes.stepsMax }),
    ...(sizes.clients === undefined ? {} : { clients: sizes.clients }),
    ...(sizes.callsPerSessionMax === undefined ? {} : { callsPerSessionMax: sizes.callsPerSessionMax }),
    ...(options.durable === true ? { restartsMax: 0 } : {}),
  });
}

function statementOf(property: PropertyName): string {
  return PROPERTIES.find((candidate) => candidate.name === property)?.statement ?? property;
}

function keyAt(list: ActionList, index: number): string {
  return `${list.kind[index]}:${list.a[index]}:${list.b[index]}`;
}

/** One run's outcome: its result, or the error it failed with; the keyed steps taken; and whether keyed steps were followed. */
interface KeyedRun {
  readonly result: RunResult | null;
  readonly error: unknown;
  readonly taken: KeyedChoice[];
  /** With `exact`: false when a step's action was not enabled (the run took another path). */
  readonly followed: boolean;
}

/**
 * Runs a target from a random walk (`steps` null) or keyed steps, and records the key of each action taken, so a
 * shrink that removes a step finds the same later actions again (see shrink-sequence.ts). With `exact`, a step whose
 * action is not enabled stops the run and marks it as not followed (comparing two targets on one scenario). A run
 * that fails (a store error the SDK passes on to the server's code) is returned as its error; a user's bad module is
 * thrown (bad input).
 */
async function runKeyed(
  target: Target,
  config: SimConfig,
  steps: readonly KeyedChoice[] | null,
  properties: readonly PropertyName[],
  options: { readonly exact?: boolean } = {},
): Promise<KeyedRun> {
  const walk = steps === null ? walkChoices(planWalk(config.seed, config.stepsMax)) : null;
  const taken: KeyedChoice[] = [];
  let next = 0;
  let followed = true;
  const source: ChoiceSource = {
    choose(world, list) {
      let choice: number | null;
      if (walk !== null) {
        choice = walk.choose(world, list);
      } else if (next < steps!.length && followed) {
        const step = steps![next]!;
        choice = pickKeyed(step, list.count, (index) => keyAt(list, index));
        if (options.exact === true && step.key !== null && keyAt(list, choice) !== step.key) {
          followed = false;
          choice = null;
        }
        next += 1;
      } else {
        choice = null;
      }
      if (choice !== null) taken.push({ choice, key: keyAt(list, choice) });
      return choice;
    },
  };
  // The store's own draws from node:crypto are seeded by the run too (the SDK target seeds the globals it uses).
  const crypto = patchNodeCrypto(config.seed);
  try {
    return { result: await runSimulation(target, config, source, { properties }), error: null, taken, followed };
  } catch (error) {
    if (error instanceof StoreModuleError) throw error;
    return { result: null, error, taken, followed };
  } finally {
    crypto.restore();
  }
}

/** The actions of keyed steps, as `kind a b`, for a run that failed before it could be recorded. */
export function describeKeyedSteps(steps: readonly KeyedChoice[]): string[] {
  return steps.map((step) => {
    const [kind, a, b] = (step.key ?? '').split(':').map(Number);
    return kind === undefined || Number.isNaN(kind) ? `choice ${step.choice}` : `${ACTION_KINDS[kind] ?? `kind ${kind}`} ${a} ${b}`;
  });
}

/** How sdk-core fares on the same actions: completes them, violates the property, or cannot take them. */
type Reference = 'holds' | 'violates' | 'diverges' | 'fails';

async function reference(config: SimConfig, steps: readonly KeyedChoice[], property: PropertyName | null): Promise<Reference> {
  const run = await runKeyed(sdkCoreTarget, config, steps, property === null ? [] : [property], { exact: true });
  if (!run.followed || run.taken.length < steps.length) return 'diverges';
  if (run.result === null) return 'fails';
  return property !== null && run.result.violation?.property === property ? 'violates' : 'holds';
}

/** Runs the end-to-end phase against the store from `source`. */
export async function checkEndToEnd(source: StoreSource, options: EndToEndOptions): Promise<EndToEndOutcome> {
  const target: ModuleTarget = createModuleTarget(source, { shared: options.shared, durable: options.durable ?? false, ...(options.callTimeoutMs === undefined ? {} : { callTimeoutMs: options.callTimeoutMs }) });
  const earlier = options.progress ?? null;
  const defects = new Map<PropertyName, TransportDefect>((earlier?.transportDefects ?? []).map((defect) => [defect.property, defect]));
  const findings: EndToEndFinding[] = [...(earlier?.findings ?? [])];
  const perProperty = new Map<PropertyName, number>(earlier?.perProperty ?? []);
  const shapes = new Set<string>(earlier?.shapes ?? []);
  const teardown: string[] = [...(earlier?.teardown ?? [])];
  const evaluationsMax = options.shrinkEvaluationsMax ?? END_TO_END_SHRINK_EVALUATIONS_MAX;
  let steps = earlier?.steps ?? 0;
  let runs = earlier?.runs ?? 0;
  // A hang or a failing run ends the phase (its later steps never ran).
  let ended = earlier?.done === true;
  const first = runs + 1;
  const last = Math.min(options.runs, first - 1 + (options.runsNow ?? options.runs));
  const add = async (finding: EndToEndFinding): Promise<void> => {
    findings.push(finding);
    await options.onFinding?.(finding);
  };
  // Hangs and teardown problems a run left, apart from a finding: a hang is the store's; teardown is reported apart.
  const takeHangs = (): string[] => {
    const all = target.takeHangs();
    for (const line of all.filter((item) => item.startsWith('teardown: '))) if (teardown.length < 5) teardown.push(line);
    return all.filter((item) => !item.startsWith('teardown: '));
  };
  runsLoop: for (let run = first; !ended && run <= last && options.stopped?.() !== true && (run === first || options.pause?.() !== true); run += 1) {
    runs = run;
    const config = endToEndConfig(runSeed(options.seed, run), options);
    // Properties the transport broke, or that have their bound of findings, are set aside so the walk can go on.
    const checked = new Set<PropertyName>(PROPERTY_NAMES.filter((property) => !defects.has(property) && (perProperty.get(property) ?? 0) < END_TO_END_DISTINCT_MAX));
    for (let attempt = 0; attempt <= PROPERTY_NAMES.length && checked.size > 0; attempt += 1) {
      const { result, error, taken } = await runKeyed(target, config, null, [...checked]);
      const hangs = takeHangs();
      if (hangs.length > 0) {
        await add({ kind: 'hang', run, seed: config.seed, explanation: hangs[0]! });
        ended = true;
        break runsLoop;
      }
      if (result === null) {
        const verdict = await reference(config, taken, null);
        if (verdict === 'fails') {
          throw new Error(`end-to-end run ${config.seed} fails on ${target.name} and on sdk-core alike (a harness bug): ${firstLine(error)}`, { cause: error });
        }
        if (verdict === 'diverges') break;
        const shrink = await shrinkSequence(
          taken,
          async (candidate) => {
            const rerun = await runKeyed(target, config, candidate, [...checked]);
            takeHangs();
            if (rerun.result !== null) return null;
            return (await reference(config, rerun.taken, null)) === 'holds' ? rerun.taken : null;
          },
          evaluationsMax,
        );
        const final = shrink === null ? { error, taken } : await runKeyed(target, config, shrink.steps, [...checked]);
        takeHangs();
        await add({
          kind: 'failure',
          run,
          seed: config.seed,
          explanation: `the run failed inside the SDK transport: ${firstLine(final.error ?? error)} (sdk-core completes the same actions)${shrink === null ? ' (flaky: the same choices did not fail again)' : ''}`,
          steps: describeKeyedSteps(final.taken),
          choices: final.taken.map((step) => step.choice),
          originalLength: taken.length,
          evaluations: shrink?.evaluations ?? 1,
        });
        // A failing run ends the walk: its later steps never ran.
        ended = true;
        break runsLoop;
      }
      if (result.violation === null) {
        steps += result.steps + result.healSteps;
        break;
      }
      const property = result.violation.property;
      const verdict = await reference(config, taken, property);
      if (verdict === 'violates' || verdict === 'diverges' || verdict === 'fails') {
        if (!defects.has(property)) {
          defects.set(property, {
            property,
            statement: statementOf(property),
            explanation: result.violation.explanation,
            seed: config.seed,
            choices: result.choices,
            reproducedOnSdkCore: verdict === 'violates',
          });
        }
        checked.delete(property);
        continue;
      }
      steps += result.steps + result.healSteps;
      checked.delete(property);
      const shrink = await shrinkSequence(
        taken,
        async (candidate) => {
          const rerun = await runKeyed(target, config, candidate, [property]);
          takeHangs();
          if (rerun.result?.violation?.property !== property) return null;
          // Confirmed on a second run: a flaky store cannot steer the shrink.
          const again = await runKeyed(target, config, candidate, [property]);
          takeHangs();
          if (again.result?.violation?.property !== property) return null;
          return (await reference(config, rerun.taken, property)) === 'holds' ? rerun.taken : null;
        },
        evaluationsMax,
      );
      const kept = shrink?.steps ?? taken;
      const shape = `${property}|${kept.map((step) => (step.key ?? '').split(':')[0]).join(',')}`;
      if (shapes.has(shape)) continue;
      shapes.add(shape);
      const choices = kept.map((step) => step.choice);
      const trace = await recordTrace(target, config, choices, { choices, originalLength: taken.length, evaluations: shrink?.evaluations ?? 1 }, [property]);
      takeHangs();
      const reproduced = trace.verdict?.property === property;
      perProperty.set(property, (perProperty.get(property) ?? 0) + 1);
      await add({
        kind: 'violation',
        run,
        trace: reproduced ? trace : { ...trace, verdict: { ...result.violation } },
        originalLength: taken.length,
        evaluations: shrink?.evaluations ?? 1,
        flaky: shrink !== null && reproduced ? null : { reproduced: reproduced ? 1 : 0, reruns: 1 },
      });
    }
  }
  const done = ended || runs >= options.runs || options.stopped?.() === true;
  const progress: EndToEndProgress = { runs, steps, done, findings, transportDefects: [...defects.values()], perProperty: [...perProperty], shapes: [...shapes], teardown };
  return { runs, steps, findings, transportDefects: progress.transportDefects, teardown, progress };
}

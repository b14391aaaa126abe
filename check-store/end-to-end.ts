// The end-to-end phase: the store inside the real SDK transport (a module target), fuzzed with the simulator. The
// verdict is about the store, so it is differential: when a run violates a property on the module target, sdk-core
// (resumecheck's own store in the same transport) is driven through the same actions (kind and operands, step by
// step, not merely the same choice numbers). If sdk-core violates the property too, or cannot take the same actions,
// the transport is to blame (recorded once per property; the run goes on without that property). Otherwise the
// store is: shrunk by the engine's shrinker with "violates P on the module target twice and not on sdk-core",
// recorded, and fuzzing goes on for other distinct violations, up to a bound per property.

import { PROPERTIES, PROPERTY_NAMES, type PropertyName } from '../properties/index.ts';
import { type ActionKey, followActions, planWalk, recordChoices, sequenceChoices, walkChoices } from '../sim/choices.ts';
import { ACTION_KINDS, DEFAULT_CONFIG, type SimConfig, resolveConfig } from '../sim/config.ts';
import { type ChoiceSource, type RunResult, runSimulation } from '../sim/engine.ts';
import { recordTrace, runSeed } from '../sim/search/fuzz.ts';
import { NotReproducedError, type ShrinkBounds, type Simulate, shrinkChoices } from '../sim/shrink/shrink.ts';
import { type ModuleTarget, type StoreSource, createModuleTarget } from '../targets/module/module.target.ts';
import { StoreModuleError, firstLine } from '../targets/module/store-module.ts';
import { sdkCoreTarget } from '../targets/sdk/index.ts';
import type { Target } from '../targets/target.ts';
import type { Trace } from '../traces/trace.ts';

/** Events each stream retains in this phase: more than any run stores, so sdk-core, the reference, never evicts. */
export const END_TO_END_WINDOW_EVENTS = 64;
/**
 * Bounds of one end-to-end shrink: each candidate is one to three runs of the SDK; with steps deleted by meaning in
 * runs early (the shrinker does, after 5 of fast-check's candidates), a few dozen candidates reach what more would.
 */
export const END_TO_END_SHRINK_BOUNDS: ShrinkBounds = { fastCheckEvaluationsMax: 20, passEvaluationsMax: 20 };
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

/** One run's outcome: its result, or the error it failed with, and the choices and actions it took. */
interface WalkedRun {
  readonly result: RunResult | null;
  readonly error: unknown;
  readonly choices: readonly number[];
  readonly actions: readonly ActionKey[];
}

/**
 * Runs a target from `source`, recording the action of each step, so that sdk-core can be driven through the same
 * actions. A run that fails (a store error the SDK passes on to the server's code) is returned as its error; a user's
 * bad module is thrown (bad input).
 */
async function runRecorded(target: Target, config: SimConfig, source: ChoiceSource, properties: readonly PropertyName[], record = false): Promise<WalkedRun> {
  const recorded = recordChoices(source);
  try {
    const result = await runSimulation(target, config, recorded.source, { properties, ...(record ? { record: true } : {}) });
    return { result, error: null, choices: recorded.choices, actions: recorded.actions };
  } catch (error) {
    if (error instanceof StoreModuleError) throw error;
    return { result: null, error, choices: recorded.choices, actions: recorded.actions };
  }
}

/** The actions of a run that failed before it could be recorded, as `kind a b`. */
export function describeActions(actions: readonly ActionKey[]): string[] {
  return actions.map((action) => `${ACTION_KINDS[action.kind] ?? `kind ${action.kind}`} ${action.a} ${action.b}`);
}

/** How sdk-core fares on the same actions: completes them, violates the property, or cannot take them. */
type Reference = 'holds' | 'violates' | 'diverges' | 'fails';

async function reference(config: SimConfig, actions: readonly ActionKey[], property: PropertyName | null): Promise<Reference> {
  const followed = followActions(actions);
  let result: RunResult | null = null;
  try {
    result = await runSimulation(sdkCoreTarget, config, followed, { properties: property === null ? [] : [property] });
  } catch {
    result = null;
  }
  if (followed.diverged || followed.taken < actions.length) return 'diverges';
  if (result === null) return 'fails';
  return property !== null && result.violation?.property === property ? 'violates' : 'holds';
}

/** A run that does not count as still failing, as the shrinker is told it. */
function holding(run: WalkedRun): RunResult {
  return run.result === null ? { violation: null, choices: run.choices, steps: run.choices.length, healSteps: 0, trace: null } : { ...run.result, violation: null };
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
      const walked = await runRecorded(target, config, walkChoices(planWalk(config.seed, config.stepsMax)), [...checked]);
      const { result, error } = walked;
      const hangs = takeHangs();
      if (hangs.length > 0) {
        await add({ kind: 'hang', run, seed: config.seed, explanation: hangs[0]! });
        ended = true;
        break runsLoop;
      }
      if (result === null) {
        const verdict = await reference(config, walked.actions, null);
        if (verdict === 'fails') {
          throw new Error(`end-to-end run ${config.seed} fails on ${target.name} and on sdk-core alike (a harness bug): ${firstLine(error)}`, { cause: error });
        }
        if (verdict === 'diverges') break;
        // A failing run counts as violating store-calls-succeed, for the shrinker, when sdk-core completes its actions.
        const failing: Simulate = async (candidateTarget, candidateConfig, choices) => {
          const tried = await runRecorded(candidateTarget, candidateConfig, choices, [...checked]);
          takeHangs();
          if (tried.result !== null || (await reference(candidateConfig, tried.actions, null)) !== 'holds') return holding(tried);
          return { violation: { property: 'store-calls-succeed', step: tried.choices.length, explanation: firstLine(tried.error) }, choices: tried.choices, steps: tried.choices.length, healSteps: 0, trace: null };
        };
        let shrunk: { readonly choices: readonly number[]; readonly evaluations: number } | null = null;
        try {
          shrunk = await shrinkChoices(target, config, walked.choices, 'store-calls-succeed', END_TO_END_SHRINK_BOUNDS, { run: failing });
        } catch (problem) {
          if (!(problem instanceof NotReproducedError)) throw problem;
        }
        const final = shrunk === null ? walked : await runRecorded(target, config, sequenceChoices(shrunk.choices), [...checked]);
        takeHangs();
        await add({
          kind: 'failure',
          run,
          seed: config.seed,
          explanation: `the run failed inside the SDK transport: ${firstLine(final.error ?? error)} (sdk-core completes the same actions)${shrunk === null ? ' (flaky: the same choices did not fail again)' : ''}`,
          steps: describeActions(final.actions),
          choices: final.choices,
          originalLength: walked.choices.length,
          evaluations: shrunk?.evaluations ?? 1,
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
      const verdict = await reference(config, walked.actions, property);
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
      // A candidate still fails when it violates the property twice on the module target (a flaky store cannot steer
      // the shrink) and sdk-core holds on the same actions.
      const actionsOf = new Map<string, readonly ActionKey[]>([[walked.choices.join(','), walked.actions]]);
      const differential: Simulate = async (candidateTarget, candidateConfig, choices, runOptions) => {
        const tried = await runRecorded(candidateTarget, candidateConfig, choices, [property], runOptions?.record === true);
        takeHangs();
        if (tried.result?.violation?.property !== property) return holding(tried);
        const again = await runRecorded(candidateTarget, candidateConfig, sequenceChoices(tried.choices), [property]);
        takeHangs();
        if (again.result?.violation?.property !== property || (await reference(candidateConfig, tried.actions, property)) !== 'holds') return holding(tried);
        actionsOf.set(tried.choices.join(','), tried.actions);
        return tried.result;
      };
      let shrunk: { readonly choices: readonly number[]; readonly evaluations: number } | null = null;
      try {
        shrunk = await shrinkChoices(target, config, walked.choices, property, END_TO_END_SHRINK_BOUNDS, { properties: [property], run: differential });
      } catch (problem) {
        if (!(problem instanceof NotReproducedError)) throw problem;
      }
      const kept = shrunk?.choices ?? walked.choices;
      const shape = `${property}|${(actionsOf.get(kept.join(',')) ?? []).map((action) => action.kind).join(',')}`;
      if (shapes.has(shape)) continue;
      shapes.add(shape);
      const trace = await recordTrace(target, config, kept, { choices: kept, originalLength: walked.choices.length, evaluations: shrunk?.evaluations ?? 1 }, [property]);
      takeHangs();
      const reproduced = trace.verdict?.property === property;
      perProperty.set(property, (perProperty.get(property) ?? 0) + 1);
      await add({
        kind: 'violation',
        run,
        trace: reproduced ? trace : { ...trace, verdict: { ...result.violation } },
        originalLength: walked.choices.length,
        evaluations: shrunk?.evaluations ?? 1,
        flaky: shrunk !== null && reproduced ? null : { reproduced: reproduced ? 1 : 0, reruns: 1 },
      });
    }
  }
  const done = ended || runs >= options.runs || options.stopped?.() === true;
  const progress: EndToEndProgress = { runs, steps, done, findings, transportDefects: [...defects.values()], perProperty: [...perProperty], shapes: [...shapes], teardown };
  return { runs, steps, findings, transportDefects: progress.transportDefects, teardown, progress };
}

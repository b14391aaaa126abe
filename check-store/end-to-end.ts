// The end-to-end phase: the store inside the real SDK transport (a module target), fuzzed by the engine's fuzz
// (sim/search/fuzz.ts) in this thread, every run made through `endToEndRun` below. The verdict is about the store, so
// it is differential: when a run violates a property on the module target, sdk-core (resumecheck's own store in the
// same transport) is driven through the same actions (kind and operands, step by step, not merely the same choice
// numbers). If sdk-core violates the property too, or cannot take the same actions, the transport is to blame
// (recorded once per property, and the property is not held against the store again); otherwise the violation
// stands. So a shrink candidate still fails when it violates the property on the module target twice (its runs may
// differ) and not on sdk-core. A run the store makes fail inside the transport (an error the SDK passes on to the
// server's code) is a violation of store-calls-succeed when sdk-core completes the same actions; a run in which a
// store call never settled is reported as a hang. Either is the search's last run.

import { PROPERTIES, PROPERTY_NAMES, type PropertyName } from '../properties/index.ts';
import { type ActionKey, followActions, recordChoices } from '../sim/choices.ts';
import { ACTION_KINDS, DEFAULT_CONFIG, type SimConfig, resolveConfig } from '../sim/config.ts';
import { type RunResult, runSimulation } from '../sim/engine.ts';
import { type Finding, type FuzzCheckpoint, inThreadExecutor, runSeed } from '../sim/search/fuzz.ts';
import { type PhaseControl, fuzzPhase } from './phase.ts';
import type { ShrinkBounds, Simulate } from '../sim/shrink/shrink.ts';
import { type ModuleTarget, type StoreSource, createModuleTarget } from '../targets/module/module.target.ts';
import { StoreModuleError, firstLine } from '../targets/module/store-module.ts';
import { sdkCoreTarget } from '../targets/sdk/index.ts';
import type { Trace } from '../traces/trace.ts';

/** Events each stream retains in this phase: more than any run stores, so sdk-core, the reference, never evicts. */
export const END_TO_END_WINDOW_EVENTS = 64;
/**
 * Bounds of one end-to-end shrink: each candidate is one to four runs of the SDK; with steps deleted by meaning in
 * runs early (the shrinker does, after 5 of fast-check's candidates), a few dozen candidates reach what more would.
 */
export const END_TO_END_SHRINK_BOUNDS: ShrinkBounds = { fastCheckEvaluationsMax: 20, passEvaluationsMax: 20 };
/** Distinct store violations reported per property at the most (distinct by signature). */
export const END_TO_END_DISTINCT_MAX = 2;
/** A run the store made fail inside the transport, as the fuzz files it. */
const STORE_CALLS_SUCCEED = 'store-calls-succeed';
/** Teardown problems kept. */
const TEARDOWN_PROBLEMS_MAX = 5;

/** Sizes of the simulated runs (defaults: the simulator's). */
export interface EndToEndSizes {
  readonly stepsMax?: number;
  /** Clients, one session each at a time. */
  readonly clients?: number;
  /** Calls (request streams) per session. */
  readonly callsPerSessionMax?: number;
}

/** What the end-to-end phase is asked to do. */
export interface EndToEndOptions extends PhaseControl {
  readonly shared: boolean;
  /** Storage and sessions outlive restarts: the phase then makes no restarts (the simulator's restart kills sessions). */
  readonly durable?: boolean;
  readonly runs: number;
  readonly seed: string;
  readonly callTimeoutMs?: number;
  readonly sizes?: EndToEndSizes;
  /** Called with each finding as soon as it is made (the CLI writes its trace then). */
  readonly onFinding?: (finding: EndToEndFinding) => void | Promise<void>;
  /** What an earlier part of the same check did (in another worker thread): go on from there; default none. */
  readonly progress?: EndToEndProgress | null;
}

/**
 * What the end-to-end phase has done so far: all it keeps, so that another thread can go on from it and reach the same
 * findings (a run is a function of the seed and its number). Structured-cloneable.
 */
export interface EndToEndProgress {
  /** The runs made so far, and the steps of those that completed. */
  readonly runs: number;
  readonly steps: number;
  /** True when the phase has ended (every run made, a hang or a failing run, or stopped). */
  readonly done: boolean;
  readonly findings: readonly EndToEndFinding[];
  readonly transportDefects: readonly TransportDefect[];
  /** Where the fuzz paused (null: not begun, or over). */
  readonly fuzz: FuzzCheckpoint | null;
  /** Teardown problems and calls that timed out without failing a run, the first few. */
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

/** The actions of a run that failed before it could be recorded, as `kind a b`. */
function describeActions(actions: readonly ActionKey[]): string[] {
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

/** What the latest run through {@link endToEndRun} came to, beyond its result. */
interface LatestRun {
  /** A store call that never settled in it (its first), or null. */
  hang: string | null;
  /** True when the store made it fail inside the transport. */
  failed: boolean;
  /** The actions of each run the store made fail, by its choices (a failing run records no steps). */
  readonly actions: Map<string, readonly ActionKey[]>;
}

/**
 * Runs of the module target as the phase judges them (see the header): each violation sdk-core shares (or whose
 * actions it cannot take) dropped, and told to `onDefect` unless the store was found to break that property in another
 * run (a property's first verdict decides whom it is charged to); a run the store made fail read as a violation of
 * store-calls-succeed (or as no violation, when sdk-core cannot take its actions either); a run in which a store call
 * hung read as no violation, the hang told through `latest`. A user's bad module is thrown (bad input); a run that
 * fails on sdk-core too is a harness bug.
 */
function endToEndRun(target: ModuleTarget, known: ReadonlySet<PropertyName>, latest: LatestRun, onDefect: (defect: TransportDefect) => void, takeProblems: () => string[]): Simulate {
  // Properties a run has violated where sdk-core held: the store's, whatever a later run shows of the transport.
  const storeCharged = new Set<PropertyName>();
  return async (_target, config, source, options = {}) => {
    const recorded = recordChoices(source);
    // The properties the transport is to blame for are not checked: a run goes on to the store's own violations.
    const properties = (options.properties ?? PROPERTY_NAMES).filter((property) => property !== STORE_CALLS_SUCCEED && !known.has(property));
    let result: RunResult;
    try {
      result = await runSimulation(target, config, recorded.source, { ...options, properties });
    } catch (error) {
      latest.hang = takeProblems()[0] ?? null;
      if (error instanceof StoreModuleError) throw error;
      const verdict = latest.hang === null ? await reference(config, recorded.actions, null) : 'diverges';
      if (verdict === 'fails') throw new Error(`end-to-end run ${config.seed} fails on ${target.name} and on sdk-core alike (a harness bug): ${firstLine(error)}`, { cause: error });
      const steps = recorded.choices.length;
      latest.failed = verdict === 'holds';
      if (latest.failed) latest.actions.set(recorded.choices.join(','), recorded.actions);
      const checked = options.properties === undefined || options.properties.includes(STORE_CALLS_SUCCEED as PropertyName);
      const violation = latest.failed && checked ? { property: STORE_CALLS_SUCCEED as PropertyName, step: steps, explanation: firstLine(error), signature: 'a store call rejected' } : null;
      const failed: RunResult = { violation, choices: recorded.choices, steps, healSteps: 0, trace: options.record === true ? [] : null };
      // Going on past its violation, the run made again without it: it fails the same way, and no other is seen.
      return options.everyViolation === true && violation !== null ? { ...failed, later: [{ ...failed, violation: null }] } : failed;
    }
    latest.hang = takeProblems()[0] ?? null;
    latest.failed = false;
    const stands = async (violation: NonNullable<RunResult['violation']>, choices: readonly number[]): Promise<boolean> => {
      if (latest.hang !== null || known.has(violation.property)) return false;
      // sdk-core takes the actions a run that ended at this violation took: a run going on past it took more.
      const verdict = await reference(config, recorded.actions.slice(0, choices.length), violation.property);
      if (verdict === 'holds') {
        storeCharged.add(violation.property);
        return true;
      }
      if (!storeCharged.has(violation.property)) onDefect({ property: violation.property, statement: statementOf(violation.property), explanation: violation.explanation, seed: config.seed, choices, reproducedOnSdkCore: verdict === 'violates' });
      return false;
    };
    if (options.everyViolation !== true) return result.violation === null || (await stands(result.violation, result.choices)) ? result : { ...result, violation: null };
    const simulations = [result, ...(result.later ?? [])].map(({ later: _later, ...each }) => each);
    const kept: RunResult[] = [];
    for (const each of simulations) {
      if (each.violation === null) {
        kept.push(each);
        break;
      }
      if (await stands(each.violation, each.choices)) kept.push(each);
    }
    // Every violation dropped: the run as a simulation checking none of them would report it (the last, with none).
    const last = simulations.at(-1)!;
    if (kept.length === 0 || kept.at(-1)!.violation !== null) kept.push({ ...last, violation: null });
    return kept.length === 1 ? kept[0]! : { ...kept[0]!, later: kept.slice(1) };
  };
}

/** Runs the end-to-end phase against the store from `source` (or the next part of it, from `options.progress`). */
export async function checkEndToEnd(source: StoreSource, options: EndToEndOptions): Promise<EndToEndProgress> {
  const target = createModuleTarget(source, { shared: options.shared, durable: options.durable ?? false, ...(options.callTimeoutMs === undefined ? {} : { callTimeoutMs: options.callTimeoutMs }) });
  const earlier = options.progress ?? null;
  const defects = new Map<PropertyName, TransportDefect>((earlier?.transportDefects ?? []).map((defect) => [defect.property, defect]));
  const findings: EndToEndFinding[] = [...(earlier?.findings ?? [])];
  const teardown: string[] = [...(earlier?.teardown ?? [])];
  const ended = (runs: number, steps: number, fuzz: FuzzCheckpoint | null): EndToEndProgress => ({ runs, steps, done: fuzz === null, findings, transportDefects: [...defects.values()], fuzz, teardown });
  if (earlier?.done === true) return earlier;
  // Hangs and teardown problems a run left: a hang is the store's; teardown is reported apart.
  const takeProblems = (): string[] => {
    const all = target.takeHangs();
    for (const line of all.filter((item) => item.startsWith('teardown: '))) if (teardown.length < TEARDOWN_PROBLEMS_MAX) teardown.push(line);
    return all.filter((item) => !item.startsWith('teardown: '));
  };
  const latest: LatestRun = { hang: null, failed: false, actions: new Map() };
  // Transport defects are gathered from the search's runs; a shrink's candidate that sdk-core shares only fails to fail.
  let searching = true;
  // Once the transport is to blame for a property, it is not checked again.
  const known = new Set(defects.keys());
  const run = endToEndRun(target, known, latest, (defect) => {
    if (!searching || defects.has(defect.property)) return;
    defects.set(defect.property, defect);
    known.add(defect.property);
  }, takeProblems);
  const base = endToEndConfig(options.seed, options);
  const resume = earlier?.fuzz ?? null;
  const outcome = await fuzzPhase(
    options,
    resume,
    {
      target,
      config: base,
      runsMax: options.runs,
      properties: [...PROPERTY_NAMES, STORE_CALLS_SUCCEED as PropertyName],
      perProperty: END_TO_END_DISTINCT_MAX,
      shrinkBounds: END_TO_END_SHRINK_BOUNDS,
      onProgress: (progress) => {
        if (progress.phase === 'shrink') searching = false;
      },
      onFinding: async (finding) => {
        const found = endToEndFinding(finding, latest.actions);
        findings.push(found);
        await options.onFinding?.(found);
      },
    },
    // A hang or a failing run ends the search: its later steps never ran, and every later run could do the same.
    (run) => {
      if (latest.hang !== null) findings.push({ kind: 'hang', run, seed: runSeed(base.seed, run), explanation: latest.hang });
      return latest.hang !== null || latest.failed;
    },
    inThreadExecutor(target, run),
  );
  // A hang found in the search is told once the search is over (it has no trace to shrink).
  for (const hang of findings.filter((finding) => finding.kind === 'hang' && finding.run > (resume?.next ?? 0))) await options.onFinding?.(hang);
  return ended(outcome.runs, outcome.steps, outcome.interrupted ? null : outcome.checkpoint);
}

/** The fuzz's finding as the phase reports it: a run the store made fail, with its shrunk actions; else a violation. */
function endToEndFinding(finding: Finding, actionsOf: ReadonlyMap<string, readonly ActionKey[]>): EndToEndFinding {
  const { trace } = finding;
  const flaky = finding.flaky === true ? { reproduced: 0, reruns: 1 } : null;
  if (trace.verdict?.property === STORE_CALLS_SUCCEED) {
    return {
      kind: 'failure',
      run: finding.run,
      seed: trace.seed,
      explanation: `the run failed inside the SDK transport: ${trace.verdict.explanation} (sdk-core completes the same actions)${flaky === null ? '' : ' (flaky: the same choices did not fail again)'}`,
      steps: describeActions(actionsOf.get(trace.choices.join(',')) ?? []),
      choices: trace.choices,
      originalLength: finding.shrink.originalLength,
      evaluations: finding.shrink.evaluations,
    };
  }
  // Its trace checks its property alone: replayed, it shows that violation, not one the transport is to blame for.
  const { unchecked: _unchecked, ...recorded } = trace;
  const property = trace.verdict === null ? [] : [trace.verdict.property];
  return { kind: 'violation', run: finding.run, trace: { ...recorded, properties: property }, originalLength: finding.shrink.originalLength, evaluations: finding.shrink.evaluations, flaky };
}

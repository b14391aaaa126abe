// checkEventStore: the verdict on a server author's EventStore, from both phases: the contract (the store driven
// directly, with overlapping calls) and end to end (inside the real SDK transport, judged against sdk-core so the
// transport's own defects do not fail the store). The CLI's check-store command is a printer around it.

import { replayCommand, shellQuote } from '../traces/trace-execution.ts';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeClientFault } from '../properties/client-fault.ts';
import { PROPERTIES } from '../properties/index.ts';
import { STRICTNESSES, type Strictness, failsAt } from '../properties/severity.ts';
import { type StoreSource, functionSource, moduleSource, moduleTargetName } from '../targets/module/module.target.ts';
import { type EventStoreFactory, type StoreModuleRef, StoreModuleError, callFactory, checkStoreModulePath, probeContext } from '../targets/module/store-module.ts';
import type { Trace } from '../traces/trace.ts';
import type { Violation } from '../sim/world.ts';
import type { StorePropertyName } from '../properties/names.ts';
import type { Severity } from '../properties/severity.ts';
import { SHARED_ISOLATION_NOTE, storeProperty } from '../properties/stores/index.ts';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STORE_LEVEL, type StoreLevelSizes } from '../sim/levels/store-level.ts';
import { type ContractFinding, type ContractProgress, checkContract } from './contract-check.ts';
import { type EndToEndFinding, type EndToEndProgress, type TransportDefect, checkEndToEnd } from './end-to-end.ts';
import { endToEndSeverity, endToEndStoreDid } from './end-to-end-properties.ts';
import { writeTrace } from '../traces/store.ts';
import { withTimeout } from '../targets/module/clock.ts';

/** A store to check: a factory function, a module path (string or file URL), or a module with a named export. */
export type StoreInput = EventStoreFactory | string | URL | StoreModuleRef;

/** How to check. Every field is optional. */
export interface CheckEventStoreOptions {
  /** One instance per incarnation serving every session (the SDK's polling example); default false. */
  readonly shared?: boolean;
  /** Storage and sessions outlive restarts (Redis, Durable Objects): a live session's pre-restart cursors are its own. */
  readonly durable?: boolean;
  /**
   * Which findings fail the check besides failures (properties/severity.ts): `warning` (or true) adds warnings (an MCP
   * SHOULD), `advice` adds advice too (a seed's advice, a design rule); default `failure` (false): failures only.
   */
  readonly strict?: boolean | Strictness;
  /** Runs of each phase; default {@link DEFAULT_STORE_CHECK_RUNS}. */
  readonly runs?: number;
  /** Default '1'. The same seed gives the same result and the same trace bytes (for a deterministic store). */
  readonly seed?: string;
  /** Runs of the contract phase, overriding `runs`. */
  readonly contractRuns?: number;
  /** Runs of the end-to-end phase, overriding `runs`; 0 skips it. */
  readonly endToEndRuns?: number;
  /** Real milliseconds one store call may take before it counts as never settling; default {@link DEFAULT_CALL_TIMEOUT_MS}. */
  readonly callTimeoutMs?: number;
  /** Sizes, so a store's own caps, eviction and TTL can be reached; defaults stay small. */
  readonly sizes?: StoreCheckSizes;
  /** Write each violation's trace into this folder (the CLI's --out) as soon as it is found; default: none written. */
  readonly out?: string | null;
  /** Called with each violation as soon as it is found and shrunk (its trace already written with `out`). */
  readonly onViolation?: (violation: StoreViolation) => void;
  /**
   * Called as soon as a run violates a property by a mechanism not seen before, before it is shrunk (each phase
   * shrinks what it found once its runs are made): the phase, the property, the run and its steps.
   */
  readonly onDiscovery?: (discovery: StoreDiscovery) => void;
  /** Asked between runs: true stops the check, which returns what it found so far (`interrupted`). */
  readonly stopped?: () => boolean;
}

/** Sizes of the simulated runs. Each is optional; the contract's and the simulator's defaults stay small. */
export interface StoreCheckSizes {
  /** Operations (contract) and fault steps (end to end) per run. */
  readonly steps?: number;
  /** Sessions per incarnation (contract) and clients (end to end, at most 3). */
  readonly sessions?: number;
  /** Request streams per session (contract) and calls per session (end to end). */
  readonly streams?: number;
  /** storeEvent calls per stream (contract). */
  readonly eventsPerStream?: number;
  /** The retention the checker expects: a cursor with at most this many events after it must be replayed (context.windowEventsMax). */
  readonly window?: number;
  /** Restarts per contract run. */
  readonly restarts?: number;
}

/** A violation found in a run, not yet shrunk: {@link CheckEventStoreOptions.onDiscovery}. */
export interface StoreDiscovery {
  readonly phase: 'contract' | 'end-to-end';
  readonly property: string;
  readonly run: number;
  readonly steps: number;
}

/** A violation the store causes. */
export interface StoreViolation {
  readonly phase: 'contract' | 'end-to-end';
  /** A contract property or a simulator property (`resumecheck properties`). */
  readonly property: string;
  readonly statement: string;
  /**
   * failure: an MCP MUST (or what the transport needs of any store); warning: an MCP SHOULD; advice: a seed's advice
   * or a design rule (properties/severity.ts).
   */
  readonly severity: Severity;
  /**
   * End to end: set when the run's client broke a requestor's rule first and the finding is one that step can itself
   * produce ("the client broke MUST NOT … at step k"): it fails nothing; null otherwise.
   */
  readonly triggeredBy: string | null;
  readonly explanation: string;
  /** End to end: one sentence on what the store did wrong; null in the contract phase (the explanation says it). */
  readonly storeDid: string | null;
  /** The seed of the run that found it, and its number. */
  readonly seed: string;
  readonly run: number;
  /** The shrunk, replayable run (a trace of the store level, or of the server level end to end); null for a hang found end to end. */
  readonly trace: Trace | null;
  readonly shrink: { readonly originalLength: number; readonly shrunkLength: number; readonly evaluations: number } | null;
  /** Null when the shrink ran to its end; else why it stopped early (candidates whose calls hung, each a timeout). */
  readonly shrinkCut: string | null;
  /** Null when it reproduced on re-running; else how often it did (a store with real timing or randomness). */
  readonly flaky: { readonly reproduced: number; readonly reruns: number } | null;
  /** The trace file written (with `out`), and the command that replays it. */
  readonly file: string | null;
  readonly replay: string | null;
  /** Context a reader needs, e.g. why any shared store fails session isolation. */
  readonly note: string | null;
  /** The shrunk actions of a run that failed before a trace could be recorded (`store-calls-succeed`); else null. */
  readonly actions: readonly string[] | null;
}

/** The end-to-end finding when a store error makes a run fail inside the transport (no trace can be recorded). */
export const STORE_CALLS_SUCCEED = { name: 'store-calls-succeed', statement: storeProperty('store-calls-succeed').statement } as const;

/** The verdict. */
export interface StoreCheckResult {
  /** True when neither phase found a finding the store causes that fails at the check's strictness; transport defects do not count. */
  readonly holds: boolean;
  /** The store as a target name: `module:<path>[#export][+shared][+durable]`, or `module:(function)`. */
  readonly target: string;
  readonly shared: boolean;
  readonly durable: boolean;
  /** True when the strictness is above the default (warnings, or advice too, fail the check). */
  readonly strict: boolean;
  /** Which findings fail the check: `failure` (the default), `warning` (`--strict`) or `advice` (`--strict=advice`). */
  readonly strictness: Strictness;
  readonly seed: string;
  readonly callTimeoutMs: number;
  /** Every violation, of every severity (see each one's). */
  readonly violations: readonly StoreViolation[];
  /** How many violations are failures, warnings and advice (a finding a client's fault triggered is in none). */
  readonly failures: number;
  readonly warnings: number;
  readonly advice: number;
  /** Properties the SDK transport breaks with resumecheck's own store too (sdk-core, same actions): not the store's. */
  readonly transportDefects: readonly TransportDefect[];
  /** Teardown problems (an onRunEnd hook or close() threw or hung), a warning; the first few, one line each. */
  readonly teardown: readonly string[];
  /**
   * `timeoutsWaited`: waits for the store that ran out the call timeout; `hungRun`: the run after which the phase
   * ended because a call in it never settled (every later run could cost a timeout too), null when none did.
   */
  readonly contract: { readonly runs: number; readonly timeoutsWaited: number; readonly hungRun: number | null };
  /** `skipped` says why the phase did not run, if it did not. */
  readonly endToEnd: { readonly runs: number; readonly steps: number; readonly skipped: string | null };
  /** True when `stopped` ended the check early: what it found so far. */
  readonly interrupted: boolean;
}

/** Runs of each phase unless told otherwise. */
export const DEFAULT_STORE_CHECK_RUNS = 200;
/** Runs of a phase at the most. */
export const STORE_CHECK_RUNS_MAX = 1_000_000;

function sourceOf(store: StoreInput): StoreSource {
  if (typeof store === 'function') return functionSource(store);
  if (store instanceof URL) return moduleSource({ path: fileURLToPath(store), exportName: null });
  if (typeof store === 'string') return moduleSource({ path: store, exportName: null });
  if (typeof store !== 'object' || store === null || typeof (store as StoreModuleRef).path !== 'string') {
    throw new StoreModuleError('checkEventStore takes a factory function, a module path, a file URL or { path, exportName }');
  }
  return moduleSource({ path: store.path, exportName: store.exportName ?? null });
}

function shown(path: string): string {
  return relative(process.cwd(), path) || path;
}

function whole(value: unknown, name: string, least: number, most: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least || value > most) {
    throw new StoreModuleError(`checkEventStore: ${name} takes a whole number from ${least} to ${most}, got ${typeof value === 'number' ? String(value) : JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

/** The strictness a `strict` option gives: true is `warning`, false or absent `failure`; anything else is bad input. */
function strictnessOption(strict: CheckEventStoreOptions['strict']): Strictness {
  if (strict === undefined || strict === false) return 'failure';
  if (strict === true) return 'warning';
  if ((STRICTNESSES as readonly unknown[]).includes(strict)) return strict;
  throw new StoreModuleError(`checkEventStore: strict takes true, false, or one of ${STRICTNESSES.join(', ')}`);
}

/** The options, checked: what the CLI refuses (exit 2) checkEventStore throws on, as a one-line StoreModuleError. */
function checkedOptions(options: CheckEventStoreOptions) {
  if (typeof options !== 'object' || options === null) throw new StoreModuleError('checkEventStore: options must be an object');
  const runs = options.runs === undefined ? DEFAULT_STORE_CHECK_RUNS : whole(options.runs, 'runs', 1, STORE_CHECK_RUNS_MAX);
  const seed = options.seed ?? '1';
  if (typeof seed !== 'string' || !/^[\w.:-]{1,64}$/.test(seed)) throw new StoreModuleError('checkEventStore: seed takes 1 to 64 letters, digits or . : _ -');
  const sizes = options.sizes ?? {};
  const size = (key: keyof StoreCheckSizes, least: number, most: number): number | undefined => (sizes[key] === undefined ? undefined : whole(sizes[key], `sizes.${key}`, least, most));
  return {
    shared: options.shared === true,
    durable: options.durable === true,
    strictness: strictnessOption(options.strict),
    runs,
    seed,
    contractRuns: options.contractRuns === undefined ? runs : whole(options.contractRuns, 'contractRuns', 1, STORE_CHECK_RUNS_MAX),
    endToEndRuns: options.endToEndRuns === undefined ? runs : whole(options.endToEndRuns, 'endToEndRuns', 0, STORE_CHECK_RUNS_MAX),
    callTimeoutMs: options.callTimeoutMs === undefined ? DEFAULT_CALL_TIMEOUT_MS : whole(options.callTimeoutMs, 'callTimeoutMs', 1, 600_000),
    sizes: {
      steps: size('steps', 1, 10_000),
      sessions: size('sessions', 1, 64),
      streams: size('streams', 1, 16),
      eventsPerStream: size('eventsPerStream', 1, 10_000),
      window: size('window', 1, 10_000),
      restarts: size('restarts', 0, 16),
    },
  };
}

function contractSizes(sizes: ReturnType<typeof checkedOptions>['sizes'], durable: boolean, callTimeoutMs: number): StoreLevelSizes & { readonly durable: boolean } {
  return {
    durable,
    callTimeoutMs,
    ...(sizes.steps === undefined ? {} : { stepsMax: sizes.steps }),
    ...(sizes.sessions === undefined ? {} : { sessionsPerEpochMax: sizes.sessions }),
    ...(sizes.streams === undefined ? {} : { postStreamsPerSessionMax: sizes.streams }),
    ...(sizes.eventsPerStream === undefined ? {} : { eventsPerStreamMax: sizes.eventsPerStream }),
    ...(sizes.window === undefined ? {} : { windowEventsMax: sizes.window }),
    ...(sizes.restarts === undefined ? {} : { restartsMax: sizes.restarts }),
  };
}

/**
 * Real milliseconds importing the store's module may take at the least, whatever the call timeout: compiling a
 * TypeScript module and loading what it imports (the SDK, a database client) takes a few hundred of them.
 */
export const IMPORT_TIMEOUT_FLOOR_MS = 2_000;

async function probe(source: StoreSource, options: { shared: boolean; durable: boolean; callTimeoutMs: number }): Promise<void> {
  if (source.ref !== null) checkStoreModulePath(source.ref);
  const where = source.ref === null ? 'the factory' : source.ref.path;
  // A module whose top-level await never settles would hold the check for ever: its import gets the factory's bound.
  const importMs = Math.max(options.callTimeoutMs, IMPORT_TIMEOUT_FLOOR_MS);
  const world = await withTimeout(
    source.openWorld('probe'),
    importMs,
    () => new StoreModuleError(`${where}: importing the module did not settle within ${importMs} ms (a top-level await that never settles?)`),
  );
  try {
    await callFactory(
      world.factory,
      probeContext({ shared: options.shared, durable: options.durable, windowEventsMax: DEFAULT_STORE_LEVEL.bounds.windowEventsMax, onRunEnd: world.onRunEnd }),
      where,
      options.callTimeoutMs,
    );
  } finally {
    await world.end(options.callTimeoutMs);
  }
}

/**
 * Checks that a store can be used at all, as {@link checkEventStore} does first: the module imports, the export is a
 * factory, and one call with a probe context returns an EventStore (within the call timeout). Throws a one-line
 * `StoreModuleError` otherwise.
 */
export async function probeEventStore(store: StoreInput, options: { readonly shared?: boolean; readonly durable?: boolean; readonly callTimeoutMs?: number } = {}): Promise<void> {
  await probe(sourceOf(store), { shared: options.shared === true, durable: options.durable === true, callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS });
}

/**
 * Checks a server author's EventStore. Bad input (invalid options, a module that cannot be imported, an export that
 * is no function, a factory whose result lacks storeEvent or replayEventsAfter or that never settles) throws a
 * `StoreModuleError` with one line; the store is found usable by calling the factory once with a probe context
 * before anything is checked.
 */
export async function checkEventStore(store: StoreInput, options: CheckEventStoreOptions = {}): Promise<StoreCheckResult> {
  checkedOptions(options);
  return checkStoreSource(sourceOf(store), options);
}

/** Checks the options as {@link checkEventStore} does; throws a one-line StoreModuleError on an invalid one. */
export function validateCheckOptions(options: CheckEventStoreOptions): void {
  checkedOptions(options);
}

/**
 * What a check has done so far: all it keeps across runs, so that a fresh worker thread can go on from the next run
 * (the CLI recycles its worker once worn, targets/module/wear.ts: Node never frees a module, and each run imports the
 * store's module afresh). Structured-cloneable; {@link storeCheckResult} turns it into the verdict.
 */
export interface StoreCheckProgress {
  /** True once the store was found usable (the probe is made once per check, before any run). */
  readonly probed: boolean;
  readonly contract: ContractProgress | null;
  readonly endToEnd: EndToEndProgress | null;
  /** Why the end-to-end phase did not run, once the contract phase has ended; null while it has not or when it runs. */
  readonly endToEndSkipped: string | null;
  /** Every violation so far, in the order found. */
  readonly violations: readonly StoreViolation[];
  /** Teardown warnings of the checker's own (handles the store left open in a worker thread). */
  readonly teardown: readonly string[];
  readonly interrupted: boolean;
  /** True when the check has ended. */
  readonly done: boolean;
}

/** A check not yet begun. */
export const STORE_CHECK_NOT_BEGUN: StoreCheckProgress = { probed: false, contract: null, endToEnd: null, endToEndSkipped: null, violations: [], teardown: [], interrupted: false, done: false };

/**
 * Makes at most `runsNow` more runs (contract first, then end to end) of the check described by `progress`, on a
 * store source (in the CLI's worker, a module source names each store call in the worker's slot); `handOver.pause`,
 * asked between runs, returns earlier (the worker sees evidence that it should be recycled). The same runs, made in
 * one call or in several (in fresh threads), give the same violations and the same trace bytes.
 */
export async function advanceStoreCheck(
  source: StoreSource,
  options: CheckEventStoreOptions,
  progress: StoreCheckProgress,
  runsNow: number,
  handOver: { readonly pause?: () => boolean } = {},
): Promise<StoreCheckProgress> {
  const checked = checkedOptions(options);
  const { shared, durable, seed, callTimeoutMs } = checked;
  if (progress.done) return progress;
  if (!progress.probed) await probe(source, { shared, durable, callTimeoutMs });
  const out = options.out ?? null;
  const violations: StoreViolation[] = [...progress.violations];
  const stopped = (): boolean => options.stopped?.() === true;
  const push = (violation: StoreViolation): void => {
    violations.push(violation);
    options.onViolation?.(violation);
  };
  const discoveries = (phase: StoreDiscovery['phase']) =>
    options.onDiscovery === undefined ? {} : { onFound: ({ run, violation, choices }: { run: number; violation: Violation; choices: readonly number[] }) => options.onDiscovery!({ phase, property: violation.property, run, steps: choices.length }) };
  let left = runsNow;
  let contract = progress.contract;
  if (contract?.done !== true) {
    const outcome = await checkContract(source, {
      shared,
      runs: checked.contractRuns,
      seed,
      config: contractSizes(checked.sizes, durable, callTimeoutMs),
      stopped,
      ...discoveries('contract'),
      progress: contract,
      runsNow: left,
      ...(handOver.pause === undefined ? {} : { pause: handOver.pause }),
      onFinding: (finding) => push(contractViolation(finding, { out, shared })),
    });
    left -= outcome.runs - (contract?.runs ?? 0);
    contract = outcome;
  }
  let endToEndSkipped = progress.endToEndSkipped;
  let endToEnd = progress.endToEnd;
  if (contract.done && endToEnd === null && endToEndSkipped === null) {
    const hung = contract.findings.some((finding) => finding.trace.verdict.property === 'calls-settle');
    endToEndSkipped =
      checked.endToEndRuns === 0
        ? 'no end-to-end runs asked for'
        : hung
          ? 'a store call never settled in the contract phase: inside the transport it would hang the request'
          : stopped()
            ? 'interrupted'
            : null;
  }
  if (contract.done && endToEndSkipped === null && endToEnd?.done !== true && left > 0) {
    const outcome = await checkEndToEnd(source, {
      shared,
      durable,
      runs: checked.endToEndRuns,
      seed,
      callTimeoutMs,
      sizes: {
        ...(checked.sizes.steps === undefined ? {} : { stepsMax: checked.sizes.steps }),
        ...(checked.sizes.sessions === undefined ? {} : { clients: Math.min(3, checked.sizes.sessions) }),
        ...(checked.sizes.streams === undefined ? {} : { callsPerSessionMax: checked.sizes.streams }),
      },
      stopped,
      ...discoveries('end-to-end'),
      progress: endToEnd,
      runsNow: left,
      // A phase begun in this call makes its first run whatever `pause` says: every call makes progress.
      ...(handOver.pause === undefined ? {} : { pause: handOver.pause }),
      onFinding: (finding) => push(endToEndViolation(finding, { out, shared })),
    });
    endToEnd = outcome;
  }
  const interrupted = progress.interrupted || stopped();
  const done = interrupted || (contract.done && (endToEndSkipped !== null || endToEnd?.done === true));
  return { probed: true, contract, endToEnd, endToEndSkipped, violations, teardown: progress.teardown, interrupted, done };
}

/** The verdict on a check's progress (ended, or interrupted between two parts: then `interrupted` is true). */
export function storeCheckResult(ref: StoreModuleRef | null, options: CheckEventStoreOptions, progress: StoreCheckProgress): StoreCheckResult {
  const { shared, durable, strictness, seed, callTimeoutMs } = checkedOptions(options);
  const { violations } = progress;
  const charged = violations.filter((violation) => violation.triggeredBy === null);
  const count = (severity: Severity): number => charged.filter((violation) => violation.severity === severity).length;
  const interrupted = progress.interrupted || !progress.done;
  const endToEndRan = progress.endToEnd !== null;
  return {
    holds: !charged.some((violation) => failsAt(violation.severity, strictness)),
    target: moduleTargetName(ref, { shared, durable }),
    shared,
    durable,
    strict: strictness !== 'failure',
    strictness,
    seed,
    callTimeoutMs,
    violations,
    failures: count('failure'),
    warnings: count('warning'),
    advice: count('advice'),
    transportDefects: progress.endToEnd?.transportDefects ?? [],
    teardown: [...(progress.contract?.teardown ?? []), ...(progress.endToEnd?.teardown ?? []), ...progress.teardown],
    contract: { runs: progress.contract?.runs ?? 0, timeoutsWaited: progress.contract?.timeoutsWaited ?? 0, hungRun: progress.contract?.hungRun ?? null },
    endToEnd: {
      runs: progress.endToEnd?.runs ?? 0,
      steps: progress.endToEnd?.steps ?? 0,
      skipped: endToEndRan ? null : (progress.endToEndSkipped ?? 'interrupted'),
    },
    interrupted,
  };
}

/** {@link checkEventStore} on a store source, every run in this thread. */
export async function checkStoreSource(source: StoreSource, options: CheckEventStoreOptions): Promise<StoreCheckResult> {
  const progress = await advanceStoreCheck(source, options, STORE_CHECK_NOT_BEGUN, Number.POSITIVE_INFINITY);
  return storeCheckResult(source.ref, options, progress);
}

/** A violation from its fields, in the order the JSON report prints them; the fields only some findings have, null when absent. */
function storeViolation(fields: Pick<StoreViolation, 'phase' | 'property' | 'statement' | 'severity' | 'explanation' | 'storeDid' | 'seed' | 'run'> & Partial<StoreViolation>): StoreViolation {
  const { phase, property, statement, severity, explanation, storeDid, seed, run, trace = null, shrink = null, shrinkCut = null, flaky = null, file = null, replay = null, note = null, triggeredBy = null, actions = null } = fields;
  return { phase, property, statement, severity, explanation, storeDid, seed, run, trace, shrink, shrinkCut, flaky, file, replay, note, triggeredBy, actions };
}

/** A trace's file written into `out` (none without), and the command that replays it. */
function written(trace: Trace, out: string | null): { file: string | null; replay: string | null } {
  const file = out === null ? null : shown(writeTrace(out, trace).path);
  // The trace names its module, which replay imports only when the command line names it too.
  return { file, replay: file === null ? null : replayCommand(file, trace.target) };
}

function contractViolation(finding: ContractFinding, options: { out: string | null; shared: boolean }): StoreViolation {
  const { trace } = finding;
  const property = storeProperty(trace.verdict.property as StorePropertyName);
  return storeViolation({
    phase: 'contract',
    property: property.name,
    statement: property.statement,
    severity: property.severity,
    explanation: trace.verdict.explanation,
    storeDid: null,
    seed: trace.config.seed,
    run: finding.run,
    trace,
    shrink: trace.shrink,
    shrinkCut: finding.shrinkCut,
    flaky: finding.flaky,
    ...written(trace, options.out),
    note: property.name === 'session-isolation' && options.shared ? SHARED_ISOLATION_NOTE : null,
  });
}

function endToEndViolation(finding: EndToEndFinding, options: { out: string | null; shared: boolean }): StoreViolation {
  if (finding.kind === 'hang') {
    return storeViolation({
      phase: 'end-to-end',
      property: 'calls-settle',
      statement: storeProperty('calls-settle').statement,
      severity: storeProperty('calls-settle').severity,
      explanation: `inside the transport, ${finding.explanation}`,
      storeDid: 'A store call never settled, which hangs the request the transport was handling.',
      seed: finding.seed,
      run: finding.run,
    });
  }
  if (finding.kind === 'failure') {
    return storeViolation({
      phase: 'end-to-end',
      property: STORE_CALLS_SUCCEED.name,
      statement: STORE_CALLS_SUCCEED.statement,
      severity: 'failure',
      explanation: finding.explanation,
      storeDid: 'A store call rejected where resumecheck\'s own store\'s succeeds, failing the request or message at hand.',
      seed: finding.seed,
      run: finding.run,
      shrink: { originalLength: finding.originalLength, shrunkLength: finding.choices.length, evaluations: finding.evaluations },
      note: `the shrunk run's choices, for resumecheck's simulator: [${finding.choices.join(', ')}] (seed ${finding.seed})`,
      actions: finding.steps,
    });
  }
  const { trace } = finding;
  const verdict = trace.verdict!;
  return storeViolation({
    phase: 'end-to-end',
    property: verdict.property,
    statement: PROPERTIES.find((candidate) => candidate.name === verdict.property)?.statement ?? verdict.property,
    severity: endToEndSeverity(verdict.property),
    explanation: verdict.explanation,
    storeDid: endToEndStoreDid(verdict.property),
    seed: trace.seed,
    run: finding.run,
    trace,
    shrink: trace.shrink,
    flaky: finding.flaky,
    ...written(trace, options.out),
    note: verdict.property === 'no-cross-session-delivery' && options.shared ? SHARED_ISOLATION_NOTE : null,
    triggeredBy: verdict.triggeredBy === undefined ? null : describeClientFault(verdict.triggeredBy),
  });
}

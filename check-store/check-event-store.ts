// checkEventStore: the verdict on a server author's EventStore, from both phases: the contract (the store driven
// directly, with overlapping calls) and end to end (inside the real SDK transport, judged against sdk-core so the
// transport's own defects do not fail the store). The CLI's check-store command is a printer around it.

import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROPERTIES } from '../properties/index.ts';
import { type StoreSource, functionSource, moduleSource, moduleTargetName } from '../targets/module/module.target.ts';
import { type EventStoreFactory, type StoreModuleRef, callFactory, checkStoreModulePath, probeContext } from '../targets/module/store-module.ts';
import type { Trace } from '../traces/trace.ts';
import { checkContract } from './contract-check.ts';
import { SHARED_ISOLATION_NOTE, contractProperty } from './contract-properties.ts';
import { DEFAULT_CONTRACT_CONFIG } from './contract-world.ts';
import { type TransportDefect, checkEndToEnd } from './end-to-end.ts';
import { type ContractTrace, writeContractTrace } from './store-traces.ts';
import { writeTrace } from '../traces/store.ts';

/** A store to check: a factory function, a module path (string or file URL), or a module with a named export. */
export type StoreInput = EventStoreFactory | string | URL | StoreModuleRef;

/** How to check. Every field is optional. */
export interface CheckEventStoreOptions {
  /** One instance per incarnation serving every session (the SDK's polling example); default false. */
  readonly shared?: boolean;
  /** Runs of each phase; default {@link DEFAULT_STORE_CHECK_RUNS}. */
  readonly runs?: number;
  /** Default '1'. The same seed gives the same result and the same trace bytes (for a deterministic store). */
  readonly seed?: string;
  /** Runs of the contract phase, overriding `runs`. */
  readonly contractRuns?: number;
  /** Runs of the end-to-end phase, overriding `runs`; 0 skips it. */
  readonly endToEndRuns?: number;
  /** Write each violation's trace into this folder (the CLI's --out); default: none written. */
  readonly out?: string | null;
}

/** A violation the store causes. */
export interface StoreViolation {
  readonly phase: 'contract' | 'end-to-end';
  /** A contract property or a simulator property (`resumecheck properties`). */
  readonly property: string;
  readonly statement: string;
  readonly explanation: string;
  /** The seed of the run that found it, and its number. */
  readonly seed: string;
  readonly run: number;
  /** The shrunk, replayable run: a contract trace or a simulator trace; null for a hang found end to end. */
  readonly trace: ContractTrace | Trace | null;
  readonly shrink: { readonly originalLength: number; readonly shrunkLength: number; readonly evaluations: number } | null;
  /** The trace file written (with `out`), and the command that replays it. */
  readonly file: string | null;
  readonly replay: string | null;
  /** Context a reader needs, e.g. why any shared store fails session isolation. */
  readonly note: string | null;
  /** The shrunk actions of a run that failed before a trace could be recorded (`store-calls-succeed`); else null. */
  readonly actions: readonly string[] | null;
}

/** The end-to-end finding when a store error makes a run fail inside the transport (no trace can be recorded). */
export const STORE_CALLS_SUCCEED = {
  name: 'store-calls-succeed',
  statement:
    "Inside the SDK transport, the store's calls succeed where resumecheck's own store's do: a rejected call fails the request or message at hand, and the SDK passes some of those failures on to the server's own code.",
} as const;

/** The verdict. */
export interface StoreCheckResult {
  /** True when neither phase found a violation the store causes (transport defects do not count). */
  readonly holds: boolean;
  /** The store as a target name: `module:<path>[#export][+shared]`, or `module:(function)`. */
  readonly target: string;
  readonly shared: boolean;
  readonly seed: string;
  readonly violations: readonly StoreViolation[];
  /** Properties the SDK transport breaks with resumecheck's own store too (sdk-core, same choices): not the store's. */
  readonly transportDefects: readonly TransportDefect[];
  readonly contract: { readonly runs: number };
  /** `skipped` says why the phase did not run, if it did not. */
  readonly endToEnd: { readonly runs: number; readonly steps: number; readonly skipped: string | null };
}

/** Runs of each phase unless told otherwise. */
export const DEFAULT_STORE_CHECK_RUNS = 200;

function sourceOf(store: StoreInput): StoreSource {
  if (typeof store === 'function') return functionSource(store);
  if (store instanceof URL) return moduleSource({ path: fileURLToPath(store), exportName: null });
  if (typeof store === 'string') return moduleSource({ path: store, exportName: null });
  return moduleSource(store);
}

function quote(argument: string): string {
  return /^[\w./:@=+-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

function shown(path: string): string {
  return relative(process.cwd(), path) || path;
}

async function probe(source: StoreSource, shared: boolean): Promise<void> {
  if (source.ref !== null) checkStoreModulePath(source.ref);
  const where = source.ref === null ? 'the factory' : source.ref.path;
  await callFactory(await source.factoryFor('probe'), probeContext({ shared, windowEventsMax: DEFAULT_CONTRACT_CONFIG.windowEventsMax }), where);
}

/**
 * Checks that a store can be used at all, as {@link checkEventStore} does first: the module imports, the export is a
 * factory, and one call with a probe context returns an EventStore. Throws a one-line `StoreModuleError` otherwise.
 */
export async function probeEventStore(store: StoreInput, options: { readonly shared?: boolean } = {}): Promise<void> {
  await probe(sourceOf(store), options.shared ?? false);
}

/**
 * Checks a server author's EventStore. Bad input (a module that cannot be imported, an export that is no function,
 * a factory whose result lacks storeEvent or replayEventsAfter) throws a `StoreModuleError` with one line; it is
 * found by calling the factory once with a probe context before anything is checked.
 */
export async function checkEventStore(store: StoreInput, options: CheckEventStoreOptions = {}): Promise<StoreCheckResult> {
  const shared = options.shared ?? false;
  const seed = options.seed ?? '1';
  const runs = options.runs ?? DEFAULT_STORE_CHECK_RUNS;
  const source = sourceOf(store);
  await probe(source, shared);
  const target = moduleTargetName(source.ref, { shared });
  const out = options.out ?? null;
  const violations: StoreViolation[] = [];

  const contract = await checkContract(source, { shared, runs: options.contractRuns ?? runs, seed });
  for (const finding of contract.findings) {
    const { trace } = finding;
    const property = contractProperty(trace.verdict.property);
    const file = out === null ? null : shown(writeContractTrace(out, trace).path);
    violations.push({
      phase: 'contract',
      property: property.name,
      statement: property.statement,
      explanation: trace.verdict.explanation,
      seed: trace.config.seed,
      run: finding.run,
      trace,
      shrink: trace.shrink,
      file,
      replay: file === null ? null : `npx resumecheck check-store --replay ${quote(file)}`,
      note: property.name === 'session-isolation' && shared ? SHARED_ISOLATION_NOTE : null,
      actions: null,
    });
  }

  const endToEndRuns = options.endToEndRuns ?? runs;
  const hung = contract.findings.some((finding) => finding.trace.verdict.property === 'calls-settle');
  const skipped = endToEndRuns === 0 ? 'no end-to-end runs asked for' : hung ? 'a store call never settled in the contract phase: inside the transport it would hang the request' : null;
  let endToEnd = { runs: 0, steps: 0, skipped, transportDefects: [] as readonly TransportDefect[] };
  if (skipped === null) {
    const outcome = await checkEndToEnd(source, { shared, runs: endToEndRuns, seed });
    endToEnd = { runs: outcome.runs, steps: outcome.steps, skipped: null, transportDefects: outcome.transportDefects };
    const finding = outcome.finding;
    if (finding?.kind === 'hang') {
      violations.push({
        phase: 'end-to-end',
        property: 'calls-settle',
        statement: contractProperty('calls-settle').statement,
        explanation: `inside the transport, ${finding.explanation}`,
        seed: finding.seed,
        run: finding.run,
        trace: null,
        shrink: null,
        file: null,
        replay: null,
        note: null,
        actions: null,
      });
    } else if (finding?.kind === 'failure') {
      violations.push({
        phase: 'end-to-end',
        property: STORE_CALLS_SUCCEED.name,
        statement: STORE_CALLS_SUCCEED.statement,
        explanation: finding.explanation,
        seed: finding.seed,
        run: finding.run,
        trace: null,
        shrink: { originalLength: finding.originalLength, shrunkLength: finding.choices.length, evaluations: finding.evaluations },
        file: null,
        replay: null,
        note: `the shrunk run's choices, for resumecheck's simulator: [${finding.choices.join(', ')}] (seed ${finding.seed})`,
        actions: finding.steps,
      });
    } else if (finding?.kind === 'violation') {
      const { trace } = finding;
      const verdict = trace.verdict!;
      const file = out === null ? null : shown(writeTrace(out, trace).path);
      violations.push({
        phase: 'end-to-end',
        property: verdict.property,
        statement: PROPERTIES.find((candidate) => candidate.name === verdict.property)?.statement ?? verdict.property,
        explanation: verdict.explanation,
        seed: trace.seed,
        run: finding.run,
        trace,
        shrink: trace.shrink,
        file,
        replay: file === null ? null : `npx resumecheck replay ${quote(file)}`,
        note: verdict.property === 'no-cross-session-delivery' && shared ? SHARED_ISOLATION_NOTE : null,
        actions: null,
      });
    }
  }
  return {
    holds: violations.length === 0,
    target,
    shared,
    seed,
    violations,
    transportDefects: endToEnd.transportDefects,
    contract: { runs: contract.runs },
    endToEnd: { runs: endToEnd.runs, steps: endToEnd.steps, skipped: endToEnd.skipped },
  };
}

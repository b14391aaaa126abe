// `resumecheck check-store`: the CLI face of checkEventStore. Prints each violation the store causes (property,
// explanation, shrunk steps, trace file, replay command), the transport's own defects apart, and exits 0 (none), 1
// (a violation) or 2 (bad input: one line). `--replay FILE` re-runs a contract trace.

import type { ParsedArgs } from '../cli/command-spec.ts';
import { checkOutDir } from '../cli/output-paths.ts';
import { UsageError, parseWhole } from '../cli/usage-error.ts';
import { type StoreSource, moduleSource } from '../targets/module/module.target.ts';
import { type StoreModuleRef, checkStoreModulePath } from '../targets/module/store-module.ts';
import { type Trace, renderSteps } from '../traces/trace.ts';
import { renderStepLines } from '../traces/render/text.ts';
import { type StoreCheckResult, type StoreViolation, DEFAULT_STORE_CHECK_RUNS, checkEventStore, probeEventStore } from './check-event-store.ts';
import { replayContractTrace } from './contract-check.ts';
import { SHARED_ISOLATION_NOTE, contractProperty } from './contract-properties.ts';
import type { ContractStep } from './contract-world.ts';
import { type ContractTrace, readContractTrace } from './store-traces.ts';

/** Where the command writes lines. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** Where traces go unless --out says otherwise. */
export const CHECK_STORE_DEFAULT_OUT = 'traces/found';

/** The usage line, as the CLI's help shows it. */
export const CHECK_STORE_USAGE = 'resumecheck check-store MODULE [--export NAME] [--shared] [--runs N] [--seed S] [--out DIR] [--json]';

function renderContractSteps(steps: readonly ContractStep[]): string[] {
  return renderStepLines(steps);
}

function stepsOf(violation: StoreViolation): string[] {
  const trace = violation.trace;
  if (violation.actions !== null) return violation.actions.map((action, index) => `${String(index + 1).padStart(3)}. ${action}`);
  if (trace === null) return [];
  if (violation.phase === 'contract') return renderContractSteps((trace as ContractTrace).steps);
  return renderSteps((trace as Trace).steps);
}

function describeStore(ref: StoreModuleRef, shared: boolean): string {
  return `${ref.path} (${ref.exportName === null ? 'default export' : `export ${ref.exportName}`}), ${shared ? 'one store per incarnation shared by every session (--shared)' : 'one store per session'}`;
}

function printViolation(io: CommandIo, violation: StoreViolation): void {
  const shrink = violation.shrink === null ? '' : `; shrunk from ${violation.shrink.originalLength} to ${violation.shrink.shrunkLength} ${violation.phase === 'contract' ? 'operations' : 'steps'} in ${violation.shrink.evaluations} runs`;
  io.out(`✗ ${violation.property} (${violation.phase}), found in run ${violation.run} (seed ${violation.seed})${shrink}`);
  io.out(`  must hold: ${violation.statement}`);
  io.out(`  happened:  ${violation.explanation}`);
  if (violation.note !== null) io.out(`  note:      ${violation.note}`);
  const steps = stepsOf(violation);
  if (steps.length > 0) {
    io.out('');
    for (const line of steps) io.out(`  ${line}`);
  }
  io.out('');
  if (violation.file !== null) {
    io.out(`  trace written: ${violation.file}`);
    io.out(`  replay it:     ${violation.replay}`);
    io.out('');
  }
}

function printResult(io: CommandIo, result: StoreCheckResult): void {
  const contract = result.violations.filter((violation) => violation.phase === 'contract');
  const endToEnd = result.violations.filter((violation) => violation.phase === 'end-to-end');
  io.out('');
  io.out(`contract phase (the store driven directly, calls overlapping): ${contract.length === 0 ? 'every property held' : `${contract.length} propert${contract.length === 1 ? 'y' : 'ies'} violated`} in ${result.contract.runs} runs`);
  io.out('');
  for (const violation of contract) printViolation(io, violation);
  const { runs, steps, skipped } = result.endToEnd;
  if (skipped !== null) {
    io.out(`end-to-end phase (the store inside the SDK transport): skipped, ${skipped}`);
  } else {
    io.out(`end-to-end phase (the store inside the SDK transport, judged against sdk-core on the same choices): ${endToEnd.length === 0 ? 'no violation the store causes' : 'the store causes a violation'} in ${runs} runs (${steps} steps)`);
  }
  io.out('');
  for (const violation of endToEnd) printViolation(io, violation);
  if (result.transportDefects.length > 0) {
    io.out('transport defects, not the store\'s (sdk-core, resumecheck\'s own store in the same SDK transport, violates them on the same choices):');
    for (const defect of result.transportDefects) io.out(`  ${defect.property}: ${defect.explanation} (seed ${defect.seed})`);
    io.out('');
  }
  if (result.holds) {
    io.out(`✓ no store violation: the contract held in ${result.contract.runs} runs${skipped === null ? `, and end to end the store caused no violation in ${runs} runs` : ''}`);
  } else {
    const names = result.violations.map((violation) => `${violation.property} (${violation.phase})`).join(', ');
    io.out(`✗ the store fails: ${names}`);
  }
}

function jsonOf(result: StoreCheckResult): string {
  return JSON.stringify({
    target: result.target,
    shared: result.shared,
    seed: result.seed,
    holds: result.holds,
    contract: result.contract,
    endToEnd: result.endToEnd,
    violations: result.violations.map(({ phase, property, explanation, seed, run, shrink, file, replay, note }) => ({ phase, property, explanation, seed, run, shrink, trace: file, replay, note })),
    transportDefects: result.transportDefects.map(({ property, explanation, seed }) => ({ property, explanation, seed })),
  });
}

async function replay(file: string, ref: StoreModuleRef | null, json: boolean, io: CommandIo): Promise<number> {
  const trace = readContractTrace(file);
  const store = ref ?? trace.store;
  if (store === null) throw new UsageError(`${file}: the store was given to checkEventStore as a function; name its MODULE: check-store MODULE --replay FILE`);
  checkStoreModulePath(store);
  const source: StoreSource = moduleSource(store);
  const result = await replayContractTrace(source, trace);
  const expected = trace.verdict.property;
  const same = result.violations.find((violation) => violation.property === expected) ?? null;
  const got = same ?? result.violations[0] ?? null;
  if (json) {
    io.out(JSON.stringify({ file, store, expected, violation: got }));
    return got === null ? 0 : 1;
  }
  if (got === null) {
    io.out(`✓ ${file}: no contract violation by ${store.path} (the trace recorded ${expected}: it now holds)`);
    return 0;
  }
  io.out(got.property === expected ? `reproduced: ${got.property} by ${store.path}` : `a different violation by ${store.path}: ${got.property} (the trace recorded ${expected})`);
  io.out(`  must hold: ${contractProperty(got.property).statement}`);
  io.out(`  happened:  ${got.explanation}`);
  if (got.property === 'session-isolation' && trace.config.shared) io.out(`  note:      ${SHARED_ISOLATION_NOTE}`);
  io.out('');
  for (const line of renderContractSteps(result.steps)) io.out(`  ${line}`);
  return 1;
}

/**
 * Runs `resumecheck check-store` with its arguments parsed by the CLI (cli/commands.ts has its options); returns the
 * exit code. Bad input throws a UsageError (one line, exit 2).
 */
export async function commandCheckStore({ values, positionals }: ParsedArgs, io: CommandIo): Promise<number> {
  const modulePath = positionals[0];
  const exportName = (values.export as string | undefined) ?? null;
  const ref: StoreModuleRef | null = modulePath === undefined ? null : { path: modulePath, exportName };
  const json = values.json === true;
  if (values.replay !== undefined) return replay(values.replay as string, ref, json, io);
  if (ref === null) throw new UsageError(`check-store needs a MODULE; usage: ${CHECK_STORE_USAGE}`);
  const shared = values.shared === true;
  const runs = values.runs === undefined ? DEFAULT_STORE_CHECK_RUNS : parseWhole(values.runs as string, '--runs', 1, 1_000_000);
  const seed = (values.seed as string | undefined) ?? '1';
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const out = (values.out as string | undefined) ?? CHECK_STORE_DEFAULT_OUT;
  checkOutDir(out, '--out');
  // Bad input is found before anything is printed: one line on stderr and nothing on stdout.
  await probeEventStore(ref, { shared });
  if (!json) io.out(`resumecheck check-store: ${describeStore(ref, shared)}, seed ${seed}, ${runs} runs per phase`);
  const result = await checkEventStore(ref, { shared, runs, seed, out });
  if (json) io.out(jsonOf(result));
  else printResult(io, result);
  return result.holds ? 0 : 1;
}

// `resumecheck check-store`: the CLI face of checkEventStore. Prints each violation the store causes (property,
// explanation, shrunk steps, trace file, replay command), the transport's own defects apart, and exits 0 (none), 1
// (a violation) or 2 (bad input: one line). `--replay FILE` re-runs a contract trace (a trace of the store level, as
// `resumecheck replay` does), naming the module it ran or the one given.

import type { ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { checkOutDir } from './output-paths.ts';
import { strictnessOf } from './parse-options.ts';
import { type Strictness, failsAt, notFailingReason, severityMark } from '../properties/severity.ts';
import { UsageError, parseDuration, parseWhole } from './usage-error.ts';
import { realNowMs } from '../targets/module/clock.ts';
import type { StorePropertyName } from '../properties/names.ts';
import { SHARED_ISOLATION_NOTE, storeProperty } from '../properties/stores/index.ts';
import { DEFAULT_CALL_TIMEOUT_MS } from '../sim/levels/store-level.ts';
import { FUNCTION_SOURCE_LABEL, parseModuleTargetName } from '../targets/module/module-name.ts';
import { type StoreSource, moduleSource } from '../targets/module/module.target.ts';
import { type StoreModuleRef, StoreModuleError, checkStoreModulePath } from '../targets/module/store-module.ts';
import { readTrace } from '../traces/store.ts';
import { renderSteps } from '../traces/trace.ts';
import { type StoreCheckResult, type StoreViolation, DEFAULT_STORE_CHECK_RUNS } from '../check-store/check-event-store.ts';
import { type ContainedOutcome, startContainedCheck } from '../check-store/contained-check.ts';
import { replayContractTrace } from '../check-store/contract-check.ts';
import { checkTraceExecution } from './trace-target.ts';
import { shellQuote } from '../traces/trace-execution.ts';

/** Where the command writes lines. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** Where traces go unless --out says otherwise. */
export const CHECK_STORE_DEFAULT_OUT = 'traces/found';

/** The usage line, as the CLI's help shows it. */
export const CHECK_STORE_USAGE =
  'resumecheck check-store MODULE [--export NAME] [--shared] [--durable] [--strict[=advice]] [--runs N] [--seed S] [--call-timeout DURATION] [--steps N] [--sessions N] [--streams N] [--events N] [--window N] [--restarts N] [--out DIR] [--json]';

function stepsOf(violation: StoreViolation): string[] {
  if (violation.actions !== null) return violation.actions.map((action, index) => `${String(index + 1).padStart(3)}. ${action}`);
  // A contract finding's trace is of the store level; an end-to-end one's of the server level (the store in the SDK transport).
  return violation.trace === null ? [] : renderSteps(violation.trace.steps, violation.trace.level ?? null);
}

function describeStore(ref: StoreModuleRef, shared: boolean): string {
  return `${ref.path} (${ref.exportName === null ? 'default export' : `export ${ref.exportName}`}), ${shared ? 'one store per incarnation shared by every session (--shared)' : 'one store per session'}`;
}

function printViolation(io: CommandIo, violation: StoreViolation): void {
  const shrink =
    violation.shrink === null
      ? ''
      : `; shrunk from ${violation.shrink.originalLength} to ${violation.shrink.shrunkLength} ${violation.phase === 'contract' ? 'operations' : 'steps'} in ${violation.shrink.evaluations} runs${violation.shrinkCut === null ? '' : ` (${violation.shrinkCut})`}`;
  // The one set of labels (properties/severity.ts), and which flag makes a finding that is not a failure fail.
  const mark = violation.triggeredBy === null ? severityMark(violation.severity) : severityMark('advice');
  const reason = violation.triggeredBy === null ? notFailingReason(violation.severity, 'failure') : "triggered by the client's own fault: fails nothing";
  const weight = reason === null ? '' : `, ${reason}`;
  io.out(`${mark} ${violation.property} (${violation.phase}${weight}), found in run ${violation.run} (seed ${violation.seed})${shrink}`);
  io.out(`  must hold: ${violation.statement}`);
  if (violation.storeDid !== null) io.out(`  the store: ${violation.storeDid}`);
  if (violation.triggeredBy !== null) io.out(`  triggered: ${violation.triggeredBy}`);
  io.out(`  happened:  ${violation.explanation}`);
  if (violation.flaky !== null) {
    io.out(`  flaky:     it did not reproduce every time the same choices ran again (${violation.flaky.reproduced} of ${violation.flaky.reruns} re-runs showed it): the store has timing or randomness of its own`);
  }
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

function printSummary(io: CommandIo, result: StoreCheckResult): void {
  const contract = result.violations.filter((violation) => violation.phase === 'contract');
  const endToEnd = result.violations.filter((violation) => violation.phase === 'end-to-end');
  io.out(`contract phase (the store driven directly, calls overlapping): ${contract.length === 0 ? 'every property held' : `${contract.length} violation${contract.length === 1 ? '' : 's'}`} in ${result.contract.runs} runs`);
  if (result.contract.hungRun !== null) {
    io.out(`  it ended after run ${result.contract.hungRun}: a store call in it never settled, and every later run could wait the call timeout again`);
  }
  const { runs, steps, skipped } = result.endToEnd;
  if (skipped !== null) {
    io.out(`end-to-end phase (the store inside the SDK transport): skipped, ${skipped}`);
  } else {
    io.out(`end-to-end phase (the store inside the SDK transport, judged against sdk-core on the same actions): ${endToEnd.length === 0 ? 'no violation the store causes' : `${endToEnd.length} violation${endToEnd.length === 1 ? '' : 's'} the store causes`} in ${runs} runs (${steps} steps)`);
  }
  io.out('');
  if (result.transportDefects.length > 0) {
    io.out('transport defects, not the store\'s (sdk-core, resumecheck\'s own store in the same SDK transport, violates them on the same actions):');
    for (const defect of result.transportDefects) {
      io.out(`  ${defect.property}: ${defect.explanation} (seed ${defect.seed})${defect.reproducedOnSdkCore ? '' : ' — sdk-core could not take the same actions, so the store is not blamed'}`);
    }
    io.out('');
  }
  if (result.teardown.length > 0) {
    io.out('⚠ teardown (a warning): ending the runs went wrong:');
    for (const line of result.teardown) io.out(`  ${line}`);
    io.out('');
  }
  if (result.interrupted) io.out(`interrupted: the check stopped early; the ${result.violations.length} violation(s) above were found before it, their traces kept`);
  const quieter: string[] = [];
  if (result.warnings > 0) quieter.push(`${result.warnings} warning${result.warnings === 1 ? '' : 's'}${failsAt('warning', result.strictness) ? ', failing at this --strict' : ', which fail only with --strict'}`);
  if (result.advice > 0) quieter.push(`${result.advice} advice${failsAt('advice', result.strictness) ? ', failing with --strict=advice' : ', which fail only with --strict=advice'}`);
  const warnings = quieter.length === 0 ? '' : ` (${quieter.join('; ')})`;
  if (result.holds) {
    io.out(`✓ no store violation${warnings}: the contract held in ${result.contract.runs} runs${skipped === null ? `, and end to end the store caused no failure in ${runs} runs` : ''}`);
  } else {
    const names = [...new Set(result.violations.filter((violation) => failsStore(violation, result.strictness)).map((violation) => `${violation.property} (${violation.phase})`))].join(', ');
    io.out(`✗ the store fails: ${names}${warnings}`);
  }
}

/** The `--json` envelope all resumecheck commands share, with the check's fields beside its keys. */
function jsonOf(result: StoreCheckResult | null, extra: { config: Record<string, unknown>; elapsedMs: number; violations: readonly StoreViolation[]; contained: string | null; interrupted: boolean }): string {
  const violations = (result?.violations ?? extra.violations).map(({ phase, property, severity, triggeredBy, explanation, storeDid, seed, run, shrink, shrinkCut, flaky, file, replay, note }) => ({
    phase,
    property,
    severity,
    triggeredBy,
    explanation,
    storeDid,
    seed,
    run,
    shrink,
    shrinkCut,
    flaky,
    trace: file,
    replay,
    note,
  }));
  return JSON.stringify(jsonEnvelope('check-store', extra.config, extra.elapsedMs, {
    target: result?.target ?? null,
    holds: result === null ? false : result.holds,
    failures: result?.failures ?? violations.filter((violation) => violation.severity === 'failure').length,
    warnings: result?.warnings ?? violations.filter((violation) => violation.severity === 'warning').length,
    advice: result?.advice ?? violations.filter((violation) => violation.severity === 'advice').length,
    contained: extra.contained,
    interrupted: extra.interrupted,
    contract: result?.contract ?? null,
    endToEnd: result?.endToEnd ?? null,
    violations,
    transportDefects: (result?.transportDefects ?? []).map(({ property, explanation, seed, reproducedOnSdkCore }) => ({ property, explanation, seed, reproducedOnSdkCore })),
    teardown: result?.teardown ?? [],
  }));
}

/** The check-store command that replays a contract trace with its module named on the command line. */
function contractReplayArgs(file: string, store: StoreModuleRef): string {
  return `check-store ${shellQuote(store.path)}${store.exportName === null ? '' : ` --export ${shellQuote(store.exportName)}`} --replay ${shellQuote(file)}`;
}

async function replay(file: string, ref: StoreModuleRef | null, allowed: boolean, json: boolean, io: CommandIo): Promise<number> {
  const trace = readTrace(file);
  const named = trace.level === 'store' ? parseModuleTargetName(trace.target) : null;
  if (named === null || trace.verdict === null) throw new UsageError(`${file}: not a check-store contract trace (a trace of the store level); end-to-end traces replay with \`resumecheck replay\``);
  const store = ref ?? (named.ref.path === FUNCTION_SOURCE_LABEL ? null : named.ref);
  if (store === null) throw new UsageError(`${file}: the store was given to checkEventStore as a function; name its MODULE: check-store MODULE --replay FILE`);
  // A trace is data: the module it names is imported only when the command line names it (MODULE) or opts in.
  if (ref === null) {
    const execution = { kind: 'module' as const, what: store.path, flag: `it as MODULE (${contractReplayArgs(file, store)})` };
    checkTraceExecution(file, execution, { allowed, io, named: 'its store', names: 'its store' });
  }
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
  io.out(`  must hold: ${storeProperty(got.property as StorePropertyName).statement}`);
  io.out(`  happened:  ${got.explanation}`);
  if (got.property === 'session-isolation' && named.shared) io.out(`  note:      ${SHARED_ISOLATION_NOTE}`);
  io.out('');
  for (const line of renderSteps(result.steps, 'store')) io.out(`  ${line}`);
  return 1;
}

function whole(values: Record<string, unknown>, flag: string, least: number, most: number): number | undefined {
  const text = values[flag] as string | undefined;
  return text === undefined ? undefined : parseWhole(text, `--${flag}`, least, most);
}

/** How the CLI is interrupted: SIGINT or SIGTERM once stops the check, twice exits at once. Returns the remover. */
function onInterrupt(stop: () => void): () => void {
  let signals = 0;
  const handler = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals === 1) {
      stop();
      return;
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** Runs `resumecheck check-store ARGS`; returns the exit code. Bad input throws a UsageError (one line, exit 2). */
export async function commandCheckStore({ values, positionals }: ParsedArgs, io: CommandIo): Promise<number> {
  const started = realNowMs();
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}; usage: ${CHECK_STORE_USAGE}`);
  const modulePath = positionals[0];
  const exportName = (values.export as string | undefined) ?? null;
  const ref: StoreModuleRef | null = modulePath === undefined ? null : { path: modulePath, exportName };
  const json = values.json === true;
  if (values.replay !== undefined) return replay(values.replay as string, ref, values['allow-trace-command'] === true, json, io);
  if (values['allow-trace-command'] === true) throw new UsageError('--allow-trace-command goes with --replay FILE');
  if (ref === null) throw new UsageError(`check-store needs a MODULE; usage: ${CHECK_STORE_USAGE}`);
  const shared = values.shared === true;
  const durable = values.durable === true;
  const strict = strictnessOf(values);
  const runs = values.runs === undefined ? DEFAULT_STORE_CHECK_RUNS : parseWhole(values.runs as string, '--runs', 1, 1_000_000);
  const seed = (values.seed as string | undefined) ?? '1';
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const callTimeoutMs = values['call-timeout'] === undefined ? DEFAULT_CALL_TIMEOUT_MS : parseDuration(values['call-timeout'] as string, '--call-timeout');
  if (callTimeoutMs > 600_000) throw new UsageError('--call-timeout must be 10m or shorter');
  const sizes = {
    ...optional('steps', whole(values, 'steps', 1, 10_000)),
    ...optional('sessions', whole(values, 'sessions', 1, 64)),
    ...optional('streams', whole(values, 'streams', 1, 16)),
    ...optional('eventsPerStream', whole(values, 'events', 1, 10_000)),
    ...optional('window', whole(values, 'window', 1, 10_000)),
    ...optional('restarts', whole(values, 'restarts', 0, 16)),
  };
  const out = (values.out as string | undefined) ?? CHECK_STORE_DEFAULT_OUT;
  checkOutDir(out, '--out');
  const options = { shared, durable, strict, runs, seed, callTimeoutMs, sizes, out };
  checkStoreModulePath(ref);
  const config = { module: ref.path, export: ref.exportName, shared, durable, strict, runs, seed, callTimeoutMs, sizes, out };
  // The header comes first, before the store's module is even imported (which may take long, or never end): bad input
  // its probe finds still ends the command with one line on stderr and exit 2.
  let printedHeader = false;
  const header = (): void => {
    if (json || printedHeader) return;
    printedHeader = true;
    io.out(`resumecheck check-store: ${describeStore(ref, shared)}${durable ? ', durable (storage and sessions outlive restarts)' : ''}, seed ${seed}, ${runs} runs per phase, call timeout ${callTimeoutMs} ms`);
    io.out('');
  };
  header();
  const check = startContainedCheck(
    ref,
    options,
    (violation) => {
      if (json) return;
      header();
      printViolation(io, violation);
    },
    (discovery) => {
      if (json) return;
      header();
      io.out(`found ${discovery.property} (${discovery.phase}) in run ${discovery.run} (${discovery.steps} ${discovery.phase === 'contract' ? 'operations' : 'steps'}); shrunk once the phase's runs are made`);
    },
  );
  const removeHandlers = onInterrupt(() => check.interrupt());
  let outcome: ContainedOutcome;
  try {
    outcome = await check.outcome;
  } finally {
    removeHandlers();
  }
  const elapsedMs = Math.round(realNowMs() - started);
  if (outcome.kind === 'bad-input') throw new StoreModuleError(outcome.message);
  if (outcome.kind === 'done') {
    if (json) io.out(jsonOf(outcome.result, { config, elapsedMs, violations: outcome.result.violations, contained: null, interrupted: outcome.result.interrupted }));
    else {
      header();
      printSummary(io, outcome.result);
    }
    return outcome.result.holds ? 0 : 1;
  }
  const { violations } = outcome;
  const verdict = outcome.kind === 'contained' ? outcome.verdict : null;
  if (json) {
    io.out(jsonOf(null, { config, elapsedMs, violations, contained: verdict, interrupted: outcome.kind === 'interrupted' }));
  } else {
    header();
    if (verdict !== null) io.out(`✗ ${verdict} (seed ${seed}; the check ran in a worker thread, which took the blow)`);
    else io.out(`interrupted: the check stopped early; the ${violations.length} violation(s) above were found before it, their traces kept`);
  }
  if (verdict !== null) return 1;
  return violations.some((violation) => failsStore(violation, strict)) ? 1 : 0;
}

/** True when a store violation fails the check at `strictness` (a finding a client's fault triggered never does). */
function failsStore(violation: StoreViolation, strictness: Strictness): boolean {
  return violation.triggeredBy === null && failsAt(violation.severity, strictness);
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

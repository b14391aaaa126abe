// `resumecheck matrix`: every target, and the reference under every completed-stream policy, against every property,
// each cell what a fuzz of its own would find with only that property checked (the fuzz's runs, run count and
// shrinking: sim/search/matrix-search.ts), the rows shared among worker threads. A cell says what it measured: "not found in
// N runs (S steps)" or the shrunk counterexample and the run that found it. Rows are printed as they finish; a signal
// keeps the rows and cells finished. Targets, policies and properties come from their registries.

import { availableParallelism } from 'node:os';
import { findingFails, severityOf } from '../properties/finding-weight.ts';
import { PROPERTIES, type Property, isPropertyName } from '../properties/index.ts';
import { type Severity, type Strictness } from '../properties/severity.ts';
import { CLIENT_PROPERTY_NAMES, PROPERTY_NAMES, type PropertyName } from '../properties/names.ts';
import { sharedWallMs } from '../sim/clock.ts';
import { DEFAULT_CONFIG, type ProtocolChoice, resolveConfig } from '../sim/config.ts';
import { protocolMismatch } from '../sim/eras.ts';
import { CONTROL, createControl } from '../sim/search/fuzz-search.ts';
import { WORKERS_MAX } from '../sim/search/fuzz.ts';
import { type CellOutcome, type RowOutcome, type RowPlan, matrixThreads, searchMatrix } from '../sim/search/matrix-search.ts';
import { matrixRowNames, matrixRowTarget } from '../sim/search/matrix-rows.ts';
import { possibleRevisions } from '../sim/revisions.ts';
import type { ComponentRole, Target } from '../targets/target.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { DEFAULT_RUNS } from './commands.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { checkProtocol, parseProtocol } from './protocol-option.ts';
import { strictnessOf } from './parse-options.ts';
import { UsageError, parseWhole } from './usage-error.ts';
import { levelOf } from '../sim/levels/level.ts';

export { matrixRowNames as matrixTargetNames, policyVariant } from '../sim/search/matrix-rows.ts';

/** The matrix's columns: the server level's properties, then the client level's (each row is judged by one set). */
/** The config a property is judged only with (Property.onlyWith), or undefined. */
function onlyWithOf(name: PropertyName): Property['onlyWith'] {
  return PROPERTIES.find((property) => property.name === name)?.onlyWith;
}

/** Every property a default run judges (one judged only on a fault the config must ask for has no column). */
const MATRIX_PROPERTIES: readonly PropertyName[] = [...PROPERTY_NAMES.filter((name) => onlyWithOf(name) === undefined), ...CLIENT_PROPERTY_NAMES];

/** One cell: what a fuzz checking only that property found, in what it measured. */
export type MatrixCell =
  | { readonly verdict: 'not-found'; readonly runs: number; readonly steps: number }
  | {
      readonly verdict: 'violated';
      readonly severity: Severity;
      /** It fails the matrix at the strictness asked for (never when the client's own fault triggered it). */
      readonly fails: boolean;
      /** The run that found it (its seed is `SEED.RUN`), and the runs and steps its fuzz made up to it. */
      readonly run: number;
      readonly runs: number;
      readonly steps: number;
      readonly originalLength: number;
      readonly shrunkLength: number;
      /** False when a signal came before its shrink; `shrinkCut` when it came during it. */
      readonly shrunk: boolean;
      readonly shrinkCut: boolean;
      readonly choices: readonly number[];
      readonly explanation: string;
      /**
       * On a target assembled from components (an SDK target): the component its shrunk counterexample is charged to,
       * by replays with a correct store or router in place (sim/shrink/attribution.ts); null elsewhere, or when not shrunk.
       */
      readonly component: { readonly charged: readonly ComponentRole[]; readonly name: string; readonly evidence: string } | null;
    }
  /** A signal ended the row's search before this cell had made its runs. */
  | { readonly verdict: 'interrupted'; readonly runs: number; readonly steps: number }
  /** A signal came before the row's search began. */
  | { readonly verdict: 'not-run' }
  /** The property cannot be observed in the row's runs: no client of them speaks a revision it applies to, or the row is a client level's (its properties are the client ones). */
  | { readonly verdict: 'n/a'; readonly why: string };

/** Why `property` has no cell of its own in a row, or null when it is checked there. */
function notApplicable(property: PropertyName, protocol: ProtocolChoice | undefined, target: Target): string | null {
  const clientProperty = (CLIENT_PROPERTY_NAMES as readonly string[]).includes(property);
  if (levelOf(target) !== undefined) return clientProperty ? null : 'a client-level target: judged by the client properties';
  if (clientProperty) return 'a server-level target: a client property judges a real SDK client';
  const onlyWith = onlyWithOf(property);
  if (onlyWith !== undefined) return `judged only on a fault the matrix's default runs do not offer (config ${onlyWith})`;
  const revisions = PROPERTIES.find((candidate) => candidate.name === property)?.revisions;
  if (revisions === undefined) return null;
  const spoken = possibleRevisions(protocol, target.eras);
  return spoken.some((revision) => revisions.includes(revision)) ? null : `no client speaks a revision it applies to (${spoken.join(', ')})`;
}

/** One row: a target and its cells, by property. */
export interface MatrixRow {
  readonly target: string;
  readonly kind: string;
  /** Every cell is final (false only after a signal). */
  readonly complete: boolean;
  readonly cells: Readonly<Partial<Record<PropertyName, MatrixCell>>>;
}

/** How the matrix is made. */
export interface MatrixOptions {
  readonly targets: readonly Target[];
  readonly seed: string;
  /** Runs per cell: the cell's fuzz's run count. */
  readonly runsMax: number;
  /** The columns (default: every property). */
  readonly properties?: readonly PropertyName[];
  /** The protocol the clients speak (--protocol); absent: none configured. */
  readonly protocol?: ProtocolChoice;
  /** Threads sharing the rows' searches and the cells' shrinks (default 1: this one); the cells do not depend on it. */
  readonly workers?: number;
  readonly strictness?: Strictness;
  /** Ends the matrix: no task starts, those under way stop; the rows and cells finished are returned. */
  readonly signal?: AbortSignal;
  /** Each row once all its cells are final, in whatever order rows finish. */
  readonly onRow?: (index: number, row: MatrixRow) => void;
}

function cellOf(cell: CellOutcome, runsMax: number, strictness: Strictness): MatrixCell {
  // A cell with no violation is finished once it made all its runs; fewer, a signal ended its search.
  if (cell.candidate === null) return { verdict: cell.runs >= runsMax ? 'not-found' : 'interrupted', runs: cell.runs, steps: cell.steps };
  const severity = severityOf(cell.property);
  const trace = cell.shrunk?.trace ?? null;
  const choices = trace?.choices ?? cell.candidate.choices;
  // The recorded shrunk run's verdict; unshrunk, the verdict of the run that found it. The shrinker looks first for a
  // counterexample without a client's own fault, so the shrunk verdict is the one that says who is charged.
  const verdict = trace?.verdict ?? cell.candidate.violation;
  const explanation = verdict.explanation;
  return {
    verdict: 'violated',
    severity,
    fails: findingFails(verdict, strictness),
    run: cell.candidate.run,
    runs: cell.runs,
    steps: cell.steps,
    originalLength: cell.candidate.choices.length,
    shrunkLength: choices.length,
    shrunk: cell.shrunk !== null,
    shrinkCut: cell.shrinkCut,
    choices,
    explanation,
    component: cell.attribution === null ? null : { charged: cell.attribution.charged, name: cell.attribution.component, evidence: cell.attribution.evidence },
  };
}

function rowOf(target: Target, properties: readonly PropertyName[], protocol: ProtocolChoice | undefined, outcome: RowOutcome, runsMax: number, strictness: Strictness): MatrixRow {
  const cells: Partial<Record<PropertyName, MatrixCell>> = {};
  for (const property of properties) {
    const why = notApplicable(property, protocol, target);
    if (why !== null) {
      cells[property] = { verdict: 'n/a', why };
      continue;
    }
    // No cell of its row's search: the search never began.
    const cell = outcome.cells.find((candidate) => candidate.property === property);
    cells[property] = cell === undefined ? { verdict: 'not-run' } : cellOf(cell, runsMax, strictness);
  }
  return { target: target.name, kind: target.kind, complete: outcome.complete, cells };
}

/** Fills the matrix: each row's search and its cells' shrinks, shared among `workers` threads. */
export async function computeMatrix(options: MatrixOptions): Promise<MatrixRow[]> {
  const config = resolveConfig({ seed: options.seed, ...(options.protocol === undefined ? {} : { protocol: options.protocol }) });
  const properties = options.properties ?? MATRIX_PROPERTIES;
  const strictness = options.strictness ?? 'failure';
  const plans: RowPlan[] = options.targets.map((target) => ({
    row: target.name,
    config,
    runsMax: options.runsMax,
    properties: properties.filter((property) => notApplicable(property, options.protocol, target) === null),
  }));
  const control = createControl({ shared: (options.workers ?? 1) > 1 });
  const stop = (): void => {
    Atomics.store(control, CONTROL.stop, 1);
  };
  if (options.signal?.aborted === true) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  const pool = matrixThreads(Math.min(Math.max(1, options.workers ?? 1), WORKERS_MAX), control);
  const row = (index: number, outcome: RowOutcome): MatrixRow => rowOf(options.targets[index]!, properties, options.protocol, outcome, options.runsMax, strictness);
  try {
    const outcomes = await searchMatrix({
      rows: plans,
      threads: pool.threads,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onRow: (index, outcome) => options.onRow?.(index, row(index, outcome)),
    });
    return outcomes.map((outcome, index) => row(index, outcome));
  } finally {
    options.signal?.removeEventListener('abort', stop);
    // After a failure too: a search or shrink still under way in this thread ends at its next check.
    stop();
    await pool.close();
  }
}

/** A cell as the text and the Markdown table show it. */
export function cellText(cell: MatrixCell | undefined): string {
  if (cell === undefined) return '';
  if (cell.verdict === 'not-found') return `not found in ${cell.runs} runs (${cell.steps} steps)`;
  if (cell.verdict === 'interrupted') return `interrupted: not found in ${cell.runs} runs (${cell.steps} steps)`;
  if (cell.verdict === 'not-run') return 'not run (interrupted)';
  if (cell.verdict === 'n/a') return 'n/a';
  const length = `${cell.shrunkLength} ${cell.shrunkLength === 1 ? 'step' : 'steps'}`;
  const how = !cell.shrunk ? ', not shrunk' : cell.shrinkCut ? ', shrinking cut short' : '';
  // A note reports what the revision permits: listed, and it fails nothing. An assembled target's cell names the
  // component charged with it.
  const charged = cell.component === null ? '' : ` · ${cell.component.charged.length === 0 ? 'undetermined' : cell.component.charged.join('+')}`;
  return `${cell.severity === 'note' ? 'note:' : '✗'} ${length}${how} (run ${cell.run})${charged}`;
}

/** The matrix's Markdown table: its two header lines, then a line per row. */
export function markdownHeader(properties: readonly PropertyName[]): string[] {
  return [`| target | ${properties.join(' | ')} |`, `|---|${properties.map(() => '---').join('|')}|`];
}

/** One row of the Markdown table. */
export function markdownRow(row: MatrixRow, properties: readonly PropertyName[]): string {
  return `| \`${row.target}\` | ${properties.map((property) => cellText(row.cells[property])).join(' | ')} |`;
}

/** One row as plain text: the target, then a line per property, aligned. */
export function textRow(row: MatrixRow, properties: readonly PropertyName[]): string[] {
  const width = Math.max(...properties.map((name) => name.length));
  return [`${row.target} (${row.kind})${row.complete ? '' : ' — interrupted'}`, ...properties.map((property) => `  ${property.padEnd(width)}  ${cellText(row.cells[property])}`)];
}


/** Workers unless --workers says otherwise: one thread per core, up to 4. */
export function defaultMatrixWorkers(): number {
  return Math.min(4, availableParallelism());
}

/** Runs `resumecheck matrix`; returns the exit code (see the command's help). */
export async function runMatrix({ values }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  if (values.json === true && values.markdown === true) throw new UsageError('give --json or --markdown, not both');
  const runsMax = values.runs === undefined ? DEFAULT_RUNS : parseWhole(values.runs as string, '--runs', 1, 10_000_000);
  const seed = (values.seed as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const workers = values.workers === undefined ? defaultMatrixWorkers() : parseWhole(values.workers as string, '--workers', 1, WORKERS_MAX);
  const strictness = strictnessOf(values);
  const asked = (values.property as string[] | undefined) ?? null;
  for (const name of asked ?? []) {
    if (!isPropertyName(name)) throw new UsageError(`unknown property ${JSON.stringify(name)}; \`resumecheck properties\` lists them`);
    if (onlyWithOf(name) !== undefined) throw new UsageError(`${name} is judged only on the version fault, which the matrix's default runs do not offer: \`resumecheck fuzz --version-faults --property ${name}\` checks it`);
  }
  const properties = asked === null ? MATRIX_PROPERTIES : MATRIX_PROPERTIES.filter((property) => asked.includes(property));
  const names = (values.target as string[] | undefined) ?? null;
  const known = matrixRowNames();
  for (const name of names ?? []) {
    if (!known.includes(name)) throw new UsageError(`unknown target ${JSON.stringify(name)}; known: ${known.join(', ')}`);
  }
  const protocol = parseProtocol(values.protocol);
  const targets: Target[] = [];
  const skipped: string[] = [];
  for (const name of names ?? known) {
    const target = (await matrixRowTarget(name))!;
    // A row named on the command line must serve the protocol (bad input otherwise); of all rows, those that do not are left out.
    if (names !== null) checkProtocol(protocol, target);
    else if (protocolMismatch(protocol, target.eras) !== null) {
      skipped.push(name);
      continue;
    }
    targets.push(target);
  }
  const json = values.json === true;
  const markdown = values.markdown === true;
  const command = `npx resumecheck matrix --runs ${runsMax} --seed ${seed}${protocol === undefined ? '' : ` --protocol ${protocol}`}${names === null ? '' : names.map((name) => ` --target ${name}`).join('')}${asked === null ? '' : properties.map((property) => ` --property ${property}`).join('')}`;
  if (markdown) {
    io.out(`Each cell: what a fuzz of ${runsMax} runs, seed ${seed}, checking that property alone finds; ✗ gives the shrunk length and the run that found it (\`${command} --markdown\`).`);
    io.out('');
    for (const line of markdownHeader(properties)) io.out(line);
  } else if (!json) {
    io.out(`resumecheck matrix: ${targets.length} ${targets.length === 1 ? 'target' : 'targets'} × ${properties.length} ${properties.length === 1 ? 'property' : 'properties'}, ${runsMax} runs per cell, seed ${seed}${protocol === undefined ? '' : `, protocol ${protocol}`}, each property checked alone`);
    if (skipped.length > 0) io.out(`left out (they do not serve ${protocol}): ${skipped.join(', ')}`);
  }

  // Rows are printed in order, each as soon as it and every row before it are final.
  const finished: (MatrixRow | null)[] = targets.map(() => null);
  let printed = 0;
  const print = (row: MatrixRow): void => {
    if (markdown) io.out(markdownRow(row, properties));
    else for (const line of textRow(row, properties)) io.out(line);
  };
  const flush = (): void => {
    for (; printed < finished.length && finished[printed] !== null; printed += 1) if (!json) print(finished[printed]!);
  };

  // A first signal ends the matrix (the rows and cells finished are kept and printed); a second one exits at once.
  const controller = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled !== null) process.exit(signal === 'SIGTERM' ? 143 : 130);
    signalled = signal;
    io.err(`resumecheck: ${signal}: stopping; the rows and cells finished are kept (${signal} again to exit at once)`);
    controller.abort();
  };
  if (io.signals === true) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  let rows: MatrixRow[];
  try {
    rows = await computeMatrix({
      targets,
      seed,
      runsMax,
      properties,
      workers,
      strictness,
      signal: controller.signal,
      ...(protocol === undefined ? {} : { protocol }),
      onRow: (index, row) => {
        finished[index] = row;
        // With --json stdout holds one document at the end; stderr tells a person watching what is done so far.
        if (json) io.err(`resumecheck matrix: row ${row.target} finished (${finished.filter((done) => done !== null).length} of ${targets.length})`);
        flush();
      },
    });
  } finally {
    if (io.signals === true) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
  // After a signal: the rows not printed yet, finished or not, in order.
  for (const [index, row] of rows.entries()) finished[index] ??= row;
  flush();
  for (; printed < rows.length; printed += 1) if (!json) print(rows[printed]!);

  const violated = rows.flatMap((row) => properties.flatMap((property) => {
    const cell = row.cells[property];
    return cell?.verdict === 'violated' ? [{ target: row.target, property, severity: cell.severity, fails: cell.fails }] : [];
  }));
  const failing = violated.filter((cell) => cell.fails);
  const code = signalled !== null ? (signalled === 'SIGTERM' ? 143 : 130) : failing.length > 0 ? 1 : 0;
  if (json) {
    const config = { targets: targets.map((target) => target.name), properties, seed, runsPerCell: runsMax, workers, strict: strictness, protocol: protocol ?? null };
    io.out(JSON.stringify(jsonEnvelope('matrix', config, sharedWallMs() - startedMs, {
      seed,
      ...(protocol === undefined ? {} : { protocol, leftOut: skipped }),
      runsPerCell: runsMax,
      properties,
      interrupted: signalled,
      exitCode: code,
      failing: failing.map(({ target, property, severity }) => ({ target, property, severity })),
      rows,
    })));
    return code;
  }
  if (markdown) return code;
  const counted = (level: Severity): number => violated.filter((cell) => cell.severity === level).length;
  io.out(`${violated.length} ${violated.length === 1 ? 'cell' : 'cells'} violated: ${counted('failure')} failures (a MUST), ${counted('warning')} warnings (a SHOULD), ${counted('advice')} advice, ${counted('note')} notes (notes fail nothing)`);
  if (signalled !== null) {
    const done = rows.filter((row) => row.complete).length;
    io.out(`interrupted by ${signalled}: ${done} of ${rows.length} rows finished; exit ${code}`);
  } else if (failing.length > 0) {
    io.out(`exit 1: ${failing.length} ${failing.length === 1 ? 'cell fails' : 'cells fail'} at --strict=${strictness}: ${failing.map((cell) => `${cell.target} × ${cell.property}`).join(', ')}`);
  } else {
    io.out(`exit 0: no cell fails at --strict=${strictness}${violated.length > 0 ? ' (the violations above are of severities it lets pass)' : ''}`);
  }
  return code;
}

// `resumecheck matrix`: every target, and the reference under every completed-stream policy, against every property,
// each cell a fuzz of its own with only that property checked (sim/fuzz.ts, which shrinks what it finds): holds
// (runs, steps) or violated (shrunk length, the run that found it). Targets, policies and properties come from
// their registries, so a new one gets its row or column without a change here.

import { type CompletedStreamPolicy, completedStreamPolicies } from '../core/index.ts';
import { CLIENT_PROPERTY_NAMES, PROPERTY_NAMES, type PropertyName } from '../properties/names.ts';

/** The matrix's columns: the server level's properties, then the client level's (each row is judged by one set). */
const MATRIX_PROPERTIES: readonly PropertyName[] = [...PROPERTY_NAMES, ...CLIENT_PROPERTY_NAMES];
import { PROPERTIES, isNote } from '../properties/index.ts';
import { DEFAULT_CONFIG, type ProtocolChoice, resolveConfig } from '../sim/config.ts';
import { protocolMismatch } from '../sim/eras.ts';
import { possibleRevisions } from '../sim/revisions.ts';
import { fuzz } from '../sim/fuzz.ts';
import { TARGET_ENTRIES } from '../targets/registry.ts';
import { coreIncarnation, openKitRun } from '../targets/server-kit.ts';
import type { Target } from '../targets/target.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { MATRIX_RUNS_DEFAULT } from './commands.ts';
import { checkProtocol, parseProtocol } from './protocol-option.ts';
import { UsageError, parseDuration, parseWhole } from './usage-error.ts';

/** The reference server with another completed-stream policy: one row per policy of the registry. */
export function policyVariant(policy: CompletedStreamPolicy): Target {
  return {
    name: `reference/${policy.name}`,
    kind: 'reference',
    description: `the reference with the completed-stream policy ${policy.name}: ${policy.rationale}`,
    breaks: [],
    // The core decides both eras whatever its completed-stream policy (that policy is the legacy era's).
    eras: ['legacy', 'modern'],
    open: (options) => openKitRun({ boot: (incarnation, bootOptions) => coreIncarnation(incarnation, bootOptions, { completedStreamPolicy: policy }) }, options),
  };
}

/** The name of every row of the matrix, in order: the built-in targets, then the reference under each policy. */
export function matrixTargetNames(): string[] {
  return [...TARGET_ENTRIES.map((entry) => entry.name), ...[...completedStreamPolicies.values()].map((policy) => `reference/${policy.name}`)];
}

/** A row's target by name (an SDK target is loaded only when its row is asked for). */
async function matrixTarget(name: string): Promise<Target> {
  const entry = TARGET_ENTRIES.find((candidate) => candidate.name === name);
  if (entry !== undefined) return entry.load();
  const policy = [...completedStreamPolicies.values()].find((candidate) => `reference/${candidate.name}` === name);
  if (policy === undefined) throw new UsageError(`unknown target ${JSON.stringify(name)}; known: ${matrixTargetNames().join(', ')}`);
  return policyVariant(policy);
}

/** One cell: what a fuzz checking only `property` found. */
export type MatrixCell =
  | { readonly verdict: 'holds'; readonly runs: number; readonly steps: number }
  | { readonly verdict: 'violated'; readonly shrunkLength: number; readonly run: number; readonly choices: readonly number[]; readonly explanation: string }
  /** The property cannot be observed in the row's runs: no client of them speaks a revision it applies to, or the row is a client level's (its properties are the client ones). */
  | { readonly verdict: 'n/a'; readonly why: string };

/** Why `property` has no cell of its own in a row, or null when it is checked there. */
function notApplicable(property: PropertyName, protocol: ProtocolChoice | undefined, target: Target): string | null {
  const clientProperty = (CLIENT_PROPERTY_NAMES as readonly string[]).includes(property);
  if (target.level !== undefined) return clientProperty ? null : 'a client-level target: judged by the client properties';
  if (clientProperty) return 'a server-level target: a client property judges a real SDK client';
  const revisions = PROPERTIES.find((candidate) => candidate.name === property)?.revisions;
  if (revisions === undefined) return null;
  const spoken = possibleRevisions(protocol, target.eras);
  return spoken.some((revision) => revisions.includes(revision)) ? null : `no client speaks a revision it applies to (${spoken.join(', ')})`;
}

/** One row: a target and its cells, by property. */
export interface MatrixRow {
  readonly target: string;
  readonly kind: string;
  readonly cells: Readonly<Record<PropertyName, MatrixCell>>;
}

/** How the matrix is made. */
export interface MatrixOptions {
  readonly targets: readonly Target[];
  readonly seed: string;
  /** Runs per cell (deterministic) or null with a budget. */
  readonly runsMax: number | null;
  /** Wall-clock budget per cell in ms, or null. */
  readonly budgetMs: number | null;
  /** The protocol the clients speak (--protocol); absent: none configured. */
  readonly protocol?: ProtocolChoice;
}

/** Fills the matrix, one fuzz per cell. */
export async function computeMatrix(options: MatrixOptions): Promise<MatrixRow[]> {
  const config = resolveConfig({ seed: options.seed, ...(options.protocol === undefined ? {} : { protocol: options.protocol }) });
  const rows: MatrixRow[] = [];
  for (const target of options.targets) {
    const cells: Partial<Record<PropertyName, MatrixCell>> = {};
    for (const property of MATRIX_PROPERTIES) {
      const why = notApplicable(property, options.protocol, target);
      if (why !== null) {
        cells[property] = { verdict: 'n/a', why };
        continue;
      }
      const outcome = await fuzz({
        target,
        config,
        runsMax: options.runsMax ?? Number.MAX_SAFE_INTEGER,
        timeMs: options.budgetMs,
        properties: [property],
        stopAtFirst: true,
      });
      const finding = outcome.finding;
      cells[property] =
        finding === null
          ? { verdict: 'holds', runs: outcome.runs, steps: outcome.steps }
          : { verdict: 'violated', shrunkLength: finding.trace.choices.length, run: finding.run, choices: finding.trace.choices, explanation: finding.trace.verdict!.explanation };
    }
    rows.push({ target: target.name, kind: target.kind, cells: cells as Record<PropertyName, MatrixCell> });
  }
  return rows;
}

function cellText(cell: MatrixCell, property: PropertyName): string {
  if (cell.verdict === 'holds') return `holds (${cell.runs} runs, ${cell.steps} steps)`;
  if (cell.verdict === 'n/a') return 'n/a';
  // A note reports what the revision permits: listed, not a failure.
  const steps = `${cell.shrunkLength} ${cell.shrunkLength === 1 ? 'step' : 'steps'} (run ${cell.run})`;
  return isNote(property) ? `note: ${steps}` : `✗ ${steps}`;
}

/** The matrix as a Markdown table: a row per target, a column per property. */
export function matrixMarkdown(rows: readonly MatrixRow[]): string[] {
  const lines = [`| target | ${MATRIX_PROPERTIES.join(' | ')} |`, `|---|${MATRIX_PROPERTIES.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| \`${row.target}\` | ${MATRIX_PROPERTIES.map((property) => cellText(row.cells[property], property)).join(' | ')} |`);
  return lines;
}

/** The matrix as plain text: a block per target, a line per property, aligned. */
export function matrixText(rows: readonly MatrixRow[]): string[] {
  const width = Math.max(...MATRIX_PROPERTIES.map((name) => name.length));
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(`${row.target} (${row.kind})`);
    for (const property of MATRIX_PROPERTIES) lines.push(`  ${property.padEnd(width)}  ${cellText(row.cells[property], property)}`);
  }
  return lines;
}

/** Runs `resumecheck matrix`; returns the exit code (0: the matrix was made, whatever it shows). */
export async function runMatrix({ values }: ParsedArgs, io: Io): Promise<number> {
  if (values.runs !== undefined && values.budget !== undefined) throw new UsageError('give --runs or --budget, not both');
  if (values.json === true && values.markdown === true) throw new UsageError('give --json or --markdown, not both');
  const runsMax = values.budget !== undefined ? null : values.runs === undefined ? MATRIX_RUNS_DEFAULT : parseWhole(values.runs as string, '--runs', 1, 10_000_000);
  const budgetMs = values.budget === undefined ? null : parseDuration(values.budget as string, '--budget');
  const seed = (values.seed as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const names = (values.target as string[] | undefined) ?? null;
  const known = matrixTargetNames();
  for (const name of names ?? []) {
    if (!known.includes(name)) throw new UsageError(`unknown target ${JSON.stringify(name)}; known: ${known.join(', ')}`);
  }
  const protocol = parseProtocol(values.protocol);
  const targets: Target[] = [];
  const skipped: string[] = [];
  for (const name of names ?? known) {
    const target = await matrixTarget(name);
    // A row named on the command line must serve the protocol (bad input otherwise); of all rows, those that do not are left out.
    if (names !== null) checkProtocol(protocol, target);
    else if (protocolMismatch(protocol, target.eras) !== null) {
      skipped.push(name);
      continue;
    }
    targets.push(target);
  }
  const rows = await computeMatrix({ targets, seed, runsMax, budgetMs, ...(protocol === undefined ? {} : { protocol }) });
  const per = runsMax === null ? `a budget of ${values.budget as string}` : `${runsMax} runs`;
  if (values.json === true) {
    io.out(JSON.stringify({ seed, ...(protocol === undefined ? {} : { protocol, leftOut: skipped }), runsPerCell: runsMax, budgetMsPerCell: budgetMs, properties: MATRIX_PROPERTIES, rows }));
    return 0;
  }
  const command = `npx resumecheck matrix ${runsMax === null ? `--budget ${values.budget as string}` : `--runs ${runsMax}`} --seed ${seed}${protocol === undefined ? '' : ` --protocol ${protocol}`}${names === null ? '' : names.map((name) => ` --target ${name}`).join('')}`;
  if (values.markdown === true) {
    io.out(`Each cell: a fuzz of ${per}, seed ${seed}, checking that property alone; ✗ gives the shrunk length and the run that found it (\`${command} --markdown\`).`);
    io.out('');
    for (const line of matrixMarkdown(rows)) io.out(line);
    return 0;
  }
  io.out(`resumecheck matrix: ${targets.length} targets × ${MATRIX_PROPERTIES.length} properties, ${per} per cell, seed ${seed}${protocol === undefined ? '' : `, protocol ${protocol}`}, each property checked alone`);
  if (skipped.length > 0) io.out(`left out (they do not serve ${protocol}): ${skipped.join(', ')}`);
  for (const line of matrixText(rows)) io.out(line);
  return 0;
}

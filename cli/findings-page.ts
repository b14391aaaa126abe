// The findings page of one SDK line (docs/findings/mcp-typescript-sdk-VERSION.md), made from data, never by hand: the
// matrix of the line's targets (cli/matrix.command.ts, each violated cell charged to a component by sim/shrink/attribution.ts)
// and the corpus traces of those targets, each replayed and charged the same way. The data is kept beside the page
// (docs/findings/data/), so the page is a pure rendering of it; cli/findings-page.test.ts checks that the page is that
// rendering, that what it says agrees with the matrix as the code now finds it, and that every trace it names exists.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_PROPERTY_NAMES, PROPERTY_NAMES, type PropertyName } from '../properties/names.ts';
import { severityOf } from '../properties/finding-weight.ts';
import { SEVERITY_LABELS, type Severity } from '../properties/severity.ts';
import { type Attribution, attributeFinding } from '../sim/shrink/attribution.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { runSimulation } from '../sim/engine.ts';
import { SDK1_PACKAGE_NAME, SDK2_PACKAGE_NAME } from '../targets/sdk/components.ts';
import { TARGET_ENTRIES } from '../targets/registry.ts';
import { COMPONENT_ROLES, type ComponentRole, type Target, type TargetComponents } from '../targets/target.ts';
import { readTrace } from '../traces/store.ts';
import { type MatrixCell, type MatrixRow, computeMatrix } from './matrix.command.ts';

/** The SDK lines a page is made for, by the package their transport comes from. */
export const SDK_LINES = { '1': SDK1_PACKAGE_NAME, '2': SDK2_PACKAGE_NAME } as const;
export type SdkLineName = keyof typeof SDK_LINES;

/** The version of the data format; a page made from data of another version is made again. */
export const FINDINGS_FORMAT_VERSION = 1;

/** One target of the line, as the page introduces it. */
export interface PageTarget {
  readonly name: string;
  readonly description: string;
  /** `package@version` as installed when the data was made. */
  readonly sdk: string;
  readonly components: TargetComponents;
}

/** A finding's component, as the data keeps it. */
export interface PageComponent {
  readonly charged: readonly ComponentRole[];
  readonly name: string;
  readonly evidence: string;
}

/** One corpus trace of a target of the line, replayed and charged when the data was made. */
export interface PageTrace {
  /** The file, relative to the repository (`traces/corpus/NAME.json`). */
  readonly file: string;
  readonly target: string;
  /** The property it records violated; null for a trace that records a holding run. */
  readonly property: PropertyName | null;
  readonly explanation: string | null;
  readonly steps: number;
  /** The component charged with its violation; null for a holding trace. */
  readonly component: PageComponent | null;
}

/** Everything a page is made from. Plain JSON. */
export interface FindingsData {
  readonly format: 'resumecheck-findings';
  readonly formatVersion: number;
  /** The line's package as installed (`@modelcontextprotocol/sdk@1.32.2`). */
  readonly sdk: string;
  readonly line: SdkLineName;
  /** The command that made the data and the page. */
  readonly command: string;
  readonly seed: string;
  readonly runsPerCell: number;
  readonly targets: readonly PageTarget[];
  /** The matrix's columns kept: every server property that applies to some target of the line. */
  readonly properties: readonly PropertyName[];
  readonly rows: readonly MatrixRow[];
  readonly traces: readonly PageTrace[];
}

/** Where the corpus is, relative to the repository root. */
export const CORPUS_DIR = 'traces/corpus';

/** The built-in targets of a line: the SDK targets whose transport is the line's package. */
export async function lineTargets(line: SdkLineName): Promise<Target[]> {
  const entries = TARGET_ENTRIES.filter((entry) => entry.kind === 'sdk' && entry.components?.transport === SDK_LINES[line]);
  return Promise.all(entries.map((entry) => entry.load()));
}

/** The page's file name for a line's package as installed: `mcp-typescript-sdk-1.32.2.md`. */
export function pageFileName(sdk: string): string {
  return `mcp-typescript-sdk-${sdk.slice(sdk.lastIndexOf('@') + 1)}.md`;
}

/** The data's file name beside it: `data/mcp-typescript-sdk-1.32.2.json`. */
export function dataFileName(sdk: string): string {
  return `data/${pageFileName(sdk).replace(/\.md$/, '.json')}`;
}

function pageComponent(attribution: Attribution | null): PageComponent | null {
  return attribution === null ? null : { charged: attribution.charged, name: attribution.component, evidence: attribution.evidence };
}

/** The corpus traces of `targets`, in file order, each replayed and charged (a few runs each). */
export async function corpusTraces(root: string, targets: readonly Target[]): Promise<PageTrace[]> {
  const directory = join(root, CORPUS_DIR);
  const files = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
  const traces: PageTrace[] = [];
  for (const file of files) {
    const trace = readTrace(join(directory, file));
    const target = targets.find((candidate) => candidate.name === trace.target);
    if (target === undefined) continue;
    // Replayed now, as it was recorded (its own properties): the verdict as the code gives it today, a client's fault
    // that triggered it included, is the one charged.
    const replayed = await runSimulation(target, trace.config, sequenceChoices(trace.choices), trace.properties === null ? {} : { properties: trace.properties });
    const verdict = replayed.violation;
    const attribution = verdict === null ? null : await attributeFinding(target, { config: trace.config, choices: trace.choices, verdict });
    traces.push({
      file: `${CORPUS_DIR}/${file}`,
      target: trace.target,
      property: verdict?.property ?? null,
      explanation: verdict?.explanation ?? null,
      steps: trace.choices.length,
      component: pageComponent(attribution),
    });
  }
  return traces;
}

/** The command that makes a line's page with these options, as the page says it. */
export function findingsCommand(line: SdkLineName, runs: number, seed: string): string {
  return `npx tsx cli/run.ts findings-page --line ${line} --runs ${runs} --seed ${seed}`;
}

/** Makes a line's data: the matrix of its targets, and its corpus traces, every finding charged to a component. */
export async function makeFindingsData(options: {
  readonly root: string;
  readonly line: SdkLineName;
  readonly runs: number;
  readonly seed: string;
  readonly workers: number;
  readonly signal?: AbortSignal;
  readonly onRow?: (row: MatrixRow) => void;
}): Promise<FindingsData> {
  const targets = await lineTargets(options.line);
  if (targets.length === 0) throw new Error(`assertion: no built-in SDK target runs ${SDK_LINES[options.line]}`);
  const sdk = targets[0]!.sdk!;
  const properties = PROPERTY_NAMES.filter((property) => !(CLIENT_PROPERTY_NAMES as readonly string[]).includes(property));
  const rows = await computeMatrix({
    targets,
    seed: options.seed,
    runsMax: options.runs,
    properties,
    workers: options.workers,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onRow === undefined ? {} : { onRow: (_index: number, row: MatrixRow) => options.onRow!(row) }),
  });
  const applicable = properties.filter((property) => rows.some((row) => row.cells[property] !== undefined && row.cells[property]!.verdict !== 'n/a'));
  return {
    format: 'resumecheck-findings',
    formatVersion: FINDINGS_FORMAT_VERSION,
    sdk,
    line: options.line,
    command: findingsCommand(options.line, options.runs, options.seed),
    seed: options.seed,
    runsPerCell: options.runs,
    targets: targets.map((target) => ({ name: target.name, description: target.description, sdk: target.sdk!, components: target.components! })),
    properties: applicable,
    rows: rows.map((row) => ({ ...row, cells: Object.fromEntries(applicable.map((property) => [property, row.cells[property]!])) })),
    traces: await corpusTraces(options.root, targets),
  };
}

/** One violated cell of the matrix, as the page lists it. */
export interface PageFinding {
  readonly target: string;
  readonly property: PropertyName;
  readonly cell: Extract<MatrixCell, { verdict: 'violated' }>;
}

/** Every violated cell, in row then column order. */
export function pageFindings(data: FindingsData): PageFinding[] {
  return data.rows.flatMap((row) =>
    data.properties.flatMap((property) => {
      const cell = row.cells[property];
      return cell?.verdict === 'violated' ? [{ target: row.target, property, cell }] : [];
    }),
  );
}

/** The roles charged with a finding, as a table cell names them (`store`, `store + router`, `undetermined`). */
function chargedRoles(component: PageComponent | null): string {
  if (component === null) return '—';
  return component.charged.length === 0 ? 'undetermined' : component.charged.join(' + ');
}

/** A violated cell's verdict words: its severity's label, or that the client's own fault triggered it (it fails nothing). */
function verdictWords(severity: Severity, component: PageComponent | null): string {
  if (component?.charged.length === 1 && component.charged[0] === 'harness') return 'triggered by the client';
  return SEVERITY_LABELS[severity];
}

/** A summary table cell: what the matrix found for one property on one target. */
export function summaryCell(cell: MatrixCell | undefined): string {
  if (cell === undefined || cell.verdict === 'n/a') return 'n/a';
  if (cell.verdict === 'not-found') return `not found in ${cell.runs} runs (${cell.steps} steps)`;
  if (cell.verdict === 'interrupted') return `interrupted: not found in ${cell.runs} runs`;
  if (cell.verdict === 'not-run') return 'not run';
  return `${verdictWords(cell.severity, cell.component)}, ${chargedRoles(cell.component)} (${cell.shrunkLength} steps, run ${cell.run})`;
}

/** Markdown-safe text for a table cell. */
function tableText(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The title line of a line's page. */
function title(data: FindingsData): string {
  const version = data.sdk.slice(data.sdk.lastIndexOf('@') + 1);
  return `# Findings: MCP TypeScript SDK ${version} (\`${data.sdk}\`), every property on every ${data.line}.x target, by component`;
}

/** The page, a pure function of its data: the same data gives the same bytes. */
export function renderFindingsPage(data: FindingsData): string {
  const lines: string[] = [];
  const out = (line = ''): void => void lines.push(line);
  out(title(data));
  out();
  out(`<!-- Generated: do not edit. Made by \`${data.command}\` from ${data.rows.length} targets × ${data.properties.length} properties and the corpus; its data is [${dataFileName(data.sdk)}](${dataFileName(data.sdk)}). -->`);
  out();
  out(`This page is made by \`${data.command}\` (${data.runsPerCell} runs per cell, seed ${data.seed}), from the matrix of the`);
  out(`targets that run \`${data.sdk}\` and from the traces of those targets kept in \`${CORPUS_DIR}/\`. Nothing on it is written by`);
  out('hand: `cli/findings-page.test.ts` fails when the page is not the rendering of its data, when a cell disagrees with what');
  out('the matrix finds now, or when a trace it names is missing. The mechanisms behind the findings, with source lines, are in');
  out(`${data.line === '1' ? '`targets/sdk/NOTES.md`' : '`targets/sdk2/NOTES.md` (and `targets/sdk/NOTES.md` for what both lines share)'}.`);
  out();
  out('Each cell is what `resumecheck matrix` finds for that property checked alone: a fuzz of the cell\'s runs, its first');
  out('violation shrunk, or "not found in N runs (S steps)". Severities are the one vocabulary (`properties/severity.ts`):');
  out('a failure is an MCP MUST, a warning a SHOULD, advice a seed\'s or resumecheck\'s own rule, a note what the revision');
  out('permits. **Every finding is charged to a component** by replaying its counterexample, step for step, with the');
  out('component replaced by a correct one (`sim/shrink/attribution.ts`): it is the **store**\'s when the same steps hold with');
  out('resumecheck/event-store in the store\'s place (transport and router unchanged), the **router**\'s when they hold with');
  out('the specification\'s routing (404 for an unknown session ID, 400 without one), the **transport**\'s (the package\'s)');
  out('when they still violate it with both replaced, and the **harness**\'s when its simulated client broke a requestor\'s');
  out('rule first (a request ID reused while in flight): such a finding is triggered by the client and fails nothing.');
  out();
  out('## Targets and their components');
  out();
  out('| target | transport | store | router |');
  out('|---|---|---|---|');
  for (const target of data.targets) {
    out(`| \`${target.name}\` | \`${target.sdk}\` | ${tableText(target.components.store)} | ${tableText(target.components.router)} |`);
  }
  out();
  out(`Harness, for every target: ${data.targets[0]?.components.harness ?? ''}.`);
  out();
  out('## Summary');
  out();
  out(`| property | ${data.rows.map((row) => `\`${row.target}\``).join(' | ')} |`);
  out(`|---|${data.rows.map(() => '---').join('|')}|`);
  for (const property of data.properties) {
    out(`| ${property} | ${data.rows.map((row) => tableText(summaryCell(row.cells[property]))).join(' | ')} |`);
  }
  out();
  const findings = pageFindings(data);
  const count = (role: ComponentRole): number => findings.filter((finding) => finding.cell.component?.charged.includes(role) === true).length;
  out(`${findings.length} violated cells: ${COMPONENT_ROLES.map((role) => `${count(role)} charged to the ${role}`).join(', ')}, ${findings.filter((finding) => finding.cell.component === null || finding.cell.component.charged.length === 0).length} undetermined.`);
  out();
  out('## Findings by component');
  for (const role of COMPONENT_ROLES) {
    const mine = findings.filter((finding) => finding.cell.component?.charged.includes(role) === true);
    const names = [...new Set(mine.map((finding) => finding.cell.component!.name))].sort();
    for (const name of names) {
      out();
      out(`### ${tableText(name)}`);
      out();
      out('| target | property | severity | counterexample (shrunk) | why this component | kept in the corpus |');
      out('|---|---|---|---|---|---|');
      for (const finding of mine.filter((candidate) => candidate.cell.component!.name === name)) {
        const kept = data.traces.filter((trace) => trace.target === finding.target && trace.property === finding.property).map((trace) => `\`${trace.file}\``);
        const shared = finding.cell.component!.charged.length > 1 ? ` (charged with ${finding.cell.component!.charged.filter((other) => other !== role).join(' and ')} too)` : '';
        out(
          `| \`${finding.target}\` | ${finding.property} | ${verdictWords(finding.cell.severity, finding.cell.component)} | ${tableText(finding.cell.explanation)} (${finding.cell.shrunkLength} steps, run ${finding.cell.run}) | ${tableText(finding.cell.component!.evidence)}${shared} | ${kept.length === 0 ? '—' : kept.join(', ')} |`,
        );
      }
    }
  }
  const undetermined = findings.filter((finding) => finding.cell.component === null || finding.cell.component.charged.length === 0);
  if (undetermined.length > 0) {
    out();
    out('### Not charged to a component');
    out();
    out('| target | property | severity | counterexample (shrunk) | why |');
    out('|---|---|---|---|---|');
    for (const finding of undetermined) {
      out(`| \`${finding.target}\` | ${finding.property} | ${SEVERITY_LABELS[finding.cell.severity]} | ${tableText(finding.cell.explanation)} (${finding.cell.shrunkLength} steps, run ${finding.cell.run}) | ${tableText(finding.cell.component?.evidence ?? 'not shrunk: no attribution')} |`);
    }
  }
  out();
  out('To see a cell\'s counterexample step by step: `npx resumecheck matrix --target T --property P --runs R` with its run R');
  out('(the same seed gives the same run), or the kept trace: `npx resumecheck replay FILE` (it prints the component too).');
  out();
  out('## Traces kept in the corpus');
  out();
  out(`Every trace of these targets in \`${CORPUS_DIR}/\`, replayed on its target and charged when this page was made (\`traces/corpus.test.ts\``);
  out('replays each to its recorded verdict on every run of the test suite).');
  out();
  out('| trace | target | verdict | severity | charged to | steps |');
  out('|---|---|---|---|---|---|');
  for (const trace of data.traces) {
    const verdict = trace.property === null ? 'holds' : `✗ ${trace.property}`;
    const severity = trace.property === null ? '—' : verdictWords(severityOf(trace.property), trace.component);
    out(`| \`${trace.file}\` | \`${trace.target}\` | ${verdict} | ${severity} | ${chargedRoles(trace.component)} | ${trace.steps} |`);
  }
  out();
  return `${lines.join('\n')}`;
}

/** What the summary table of a page says of one cell, read back from the page's text. */
export type ReadVerdict = 'violated' | 'not-found' | 'n/a' | 'other';

/** The summary table of a rendered page, read back: target → property → what it says. */
export function readSummary(page: string): Map<string, Map<string, ReadVerdict>> {
  const lines = page.split('\n');
  const start = lines.indexOf('## Summary');
  const table = new Map<string, Map<string, ReadVerdict>>();
  if (start < 0) return table;
  const header = lines.slice(start + 1).find((line) => line.startsWith('| property |'));
  if (header === undefined) return table;
  const targets = header.split(' | ').slice(1).map((cell) => cell.replace(/[`|]/g, '').trim());
  for (const target of targets) table.set(target, new Map());
  for (const line of lines.slice(lines.indexOf(header) + 2)) {
    if (!line.startsWith('| ')) break;
    const cells = line.slice(2, -2).split(' | ');
    const property = cells[0]!;
    for (const [index, target] of targets.entries()) {
      const text = cells[index + 1] ?? '';
      const verdict: ReadVerdict = text.startsWith('not found') ? 'not-found' : text === 'n/a' ? 'n/a' : text.includes('(') && text.includes(', run ') ? 'violated' : 'other';
      table.get(target)!.set(property, verdict);
    }
  }
  return table;
}

/** Where a page says something the matrix rows do not: each disagreement as one line (none: they agree). */
export function contradictions(page: string, rows: readonly MatrixRow[], properties: readonly PropertyName[]): string[] {
  const read = readSummary(page);
  const problems: string[] = [];
  for (const row of rows) {
    const said = read.get(row.target);
    if (said === undefined) {
      problems.push(`the page has no column for ${row.target}`);
      continue;
    }
    for (const property of properties) {
      const cell = row.cells[property];
      const actual: ReadVerdict = cell === undefined || cell.verdict === 'n/a' ? 'n/a' : cell.verdict === 'violated' ? 'violated' : cell.verdict === 'not-found' ? 'not-found' : 'other';
      const claimed = said.get(property);
      if (claimed !== actual) problems.push(`${row.target} × ${property}: the page says ${claimed ?? 'nothing'}, the matrix ${actual}`);
    }
  }
  return problems;
}

/** Every corpus trace a page names (`traces/corpus/NAME.json`), in order of first mention. */
export function namedTraces(page: string): string[] {
  return [...new Set(page.match(/traces\/corpus\/[A-Za-z0-9._+-]+\.json/g) ?? [])];
}

// The README's "Current results" figures, remade by one command: `npx tsx bench/current-results.ts --write-readme`
// rewrites the part between its markers (without the flag, prints it). Each figure is what the command it names
// prints, run here in process through the CLI (`--json`): the reference's verdict and steps, the reference under every
// protocol revision, the dual-era planted targets under `mixed`, the reference on several nodes under every balancer
// and store lag. The planted targets' table is rendered from bench/findings.expected.json, which bench/findings.test.ts
// holds against what the fuzz finds at this commit (and against this table in the README).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../cli/run-in-process.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { writeFileAtomically } from '../traces/store.ts';
import { EXPECTED_PATH, type Findings, PLANTED_RUNS, type PlantedFinding } from './findings.ts';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
export const RESULTS_START = '<!-- current-results (written by `npx tsx bench/current-results.ts --write-readme`; do not edit by hand) -->';
export const RESULTS_END = '<!-- /current-results -->';

/** One finding of a fuzz's `--json` document, as far as the figures read it. */
interface JsonFinding {
  readonly property: string;
  readonly run: number;
  readonly originalLength: number;
  readonly shrunkLength: number;
  readonly severity: string;
}

/** What a fuzz's `--json` document says, as far as the figures read it. */
interface FuzzFigure {
  readonly args: readonly string[];
  readonly code: number;
  readonly runs: number;
  readonly steps: number;
  readonly findings: readonly JsonFinding[];
}

/** Where the runs write what they find (removed at the end). */
let scratch = '';

async function fuzzFigure(args: readonly string[]): Promise<FuzzFigure> {
  const result = await runInProcess(['fuzz', ...args, '--no-corpus', '--json', '--out', join(scratch, 'found')]);
  const document = JSON.parse(result.out.join('\n')) as { runs: number; steps: number; violations: JsonFinding[] };
  return { args, code: result.code, runs: document.runs, steps: document.steps, findings: document.violations };
}

const command = (figure: FuzzFigure) => `\`fuzz ${figure.args.join(' ')} --no-corpus\``;
const number = (value: number) => value.toLocaleString('en-US').replaceAll(',', ' ');

/** A fuzz's outcome in a few words: no violation and its steps, or each property with its shortest shrunk length and run. */
function outcome(figure: FuzzFigure): string {
  if (figure.findings.length === 0) return `no violation in ${number(figure.runs)} runs (${number(figure.steps)} steps), exit ${figure.code}`;
  const byProperty = new Map<string, JsonFinding[]>();
  for (const finding of figure.findings) byProperty.set(finding.property, [...(byProperty.get(finding.property) ?? []), finding]);
  const parts = [...byProperty].map(([property, findings]) => {
    const shortest = [...findings].sort((left, right) => left.shrunkLength - right.shrunkLength || left.run - right.run)[0]!;
    const more = findings.length === 1 ? '' : `, ${findings.length} mechanisms`;
    return `\`${property}\` (${shortest.severity}; ${shortest.originalLength} → ${shortest.shrunkLength} steps, run ${shortest.run}${more})`;
  });
  return `${parts.join('; ')}; exit ${figure.code}`;
}

/** Each planted target's findings as recorded (and tested) in bench/findings.expected.json: a table row a target. */
export function plantedTable(findings: Findings): string[] {
  const rows = PLANTED_TARGETS.map((target) => {
    const recorded = findings.planted[target.name] ?? [];
    const byProperty = new Map<string, PlantedFinding[]>();
    for (const finding of recorded) byProperty.set(finding.property, [...(byProperty.get(finding.property) ?? []), finding]);
    const cells = [...byProperty].map(([property, list]) => `\`${property}\` ${list.map((finding) => `${finding.foundLength} → ${finding.choices.length} (run ${finding.run})`).join(', ')}`);
    const protocol = target.eras?.includes('modern') === true ? ' (`--protocol mixed`)' : '';
    return `| \`${target.name}\`${protocol} | ${cells.length === 0 ? 'nothing found' : cells.join('; ')} |`;
  });
  return ['| target | each property violated: steps as found → shrunk (run), one entry a mechanism |', '|---|---|', ...rows];
}

/** The whole generated part. */
export async function currentResults(): Promise<string[]> {
  const lines: string[] = [];
  const reference = await fuzzFigure(['--target', 'reference', '--runs', '20000']);
  lines.push(`**The reference holds.** ${command(reference)} → ${outcome(reference)}.`, '');
  lines.push('**Under every protocol revision** (a note is permitted by its revision and fails nothing):', '');
  for (const protocol of ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'mixed']) {
    const figure = await fuzzFigure(['--target', 'reference', '--protocol', protocol, '--runs', '2000']);
    lines.push(`- ${command(figure)} → ${outcome(figure)}`);
  }
  const modern = await fuzzFigure(['--target', 'reference-modern', '--runs', '2000']);
  lines.push(`- ${command(modern)} → ${outcome(modern)}`);
  for (const target of PLANTED_TARGETS.filter((candidate) => candidate.eras?.includes('modern') === true)) {
    const figure = await fuzzFigure(['--target', target.name, '--protocol', 'mixed', '--runs', '2000', '--seed', '1']);
    lines.push(`- ${command(figure)} → ${outcome(figure)}`);
  }
  lines.push('');
  const findings = JSON.parse(readFileSync(EXPECTED_PATH, 'utf8')) as Findings;
  lines.push(
    `**Every planted bug is caught and shrunk**: what \`fuzz --target T --no-corpus --runs ${PLANTED_RUNS} --seed 1\` finds on each`,
    'planted target (every property, up to three mechanisms a property), as bench/findings.expected.json records it and',
    'bench/findings.test.ts checks at every commit:',
    '',
    ...plantedTable(findings),
    '',
  );
  lines.push('**The reference on several nodes holds under every balancer and store lag** (3 000 runs each):', '');
  for (const balancer of ['round-robin', 'random', 'sticky', 'failover']) {
    const cells: string[] = [];
    for (const lag of ['0', '2', '3']) {
      for (const seed of ['1', '2']) {
        const figure = await fuzzFigure(['--target', 'reference', '--nodes', '3', '--balancer', balancer, '--store-lag', lag, '--runs', '3000', '--seed', seed, '--workers', '1']);
        cells.push(`lag ${lag} seed ${seed}: ${figure.findings.length === 0 ? `none (${number(figure.steps)} steps)` : outcome(figure)}`);
      }
    }
    lines.push(`- \`--nodes 3 --balancer ${balancer}\`: ${cells.join('; ')}`);
  }
  const handoff = await fuzzFigure(['--target', 'no-handoff', '--nodes', '3', '--balancer', 'round-robin', '--runs', '5000', '--seed', '1', '--workers', '1']);
  lines.push(`- the planted ${command(handoff)} → ${outcome(handoff)}`);
  return lines;
}

/** Writes the generated part between the README's markers; the rest of the README stays as it is. */
function writeReadme(lines: readonly string[]): void {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(RESULTS_START);
  const end = text.indexOf(RESULTS_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${RESULTS_START} … ${RESULTS_END} section`);
  writeFileAtomically(README, `${text.slice(0, start + RESULTS_START.length)}\n${lines.join('\n')}\n${text.slice(end)}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  scratch = mkdtempSync(join(tmpdir(), 'resumecheck-results-'));
  try {
    const lines = await currentResults();
    if (process.argv.includes('--write-readme')) {
      writeReadme(lines);
      process.stdout.write('README.md: current results rewritten\n');
    } else process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

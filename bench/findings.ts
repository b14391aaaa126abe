// What the fuzz finds and what the shrinker makes of it, as data a speed change must leave alone
// (bench/findings.test.ts compares it with bench/findings.expected.json):
//
// * every planted target (targets/planted): `fuzz()` as `resumecheck fuzz --target T --no-corpus` makes it (seed 1,
//   2 000 runs, every property, up to --per-property's default of findings per property, one per signature; a dual-era target's clients speak `mixed`), each finding's
//   property, the run that found it, its length as found and its shrunk choices;
// * the README's main job shortened: `fuzz()` on sdk-shared as above with 500 runs (most of the job's findings, in a
//   quarter of its runs), its findings the same way;
// * every stored SDK counterexample (traces/corpus/, the SDK server targets' traces that violate something): its
//   recorded choices shrunk again by `shrinkChoices` for its property, under its config and properties: the shrunk
//   choices and the property the shrunk run violates.
//
//   npx tsx bench/findings.ts           prints the document
//   npx tsx bench/findings.ts --write   rewrites bench/findings.expected.json (after a change that is meant to move them)

import { writeFileAtomically } from '../traces/store.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PropertyName } from '../properties/names.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { PER_PROPERTY_DEFAULT, type SimConfig, resolveConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { fuzz } from '../sim/search/fuzz.ts';
import { DEFAULT_SHRINK_BOUNDS, shrinkChoices } from '../sim/shrink/shrink.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { targetEntry } from '../targets/registry.ts';
import type { Target } from '../targets/target.ts';
import { parseTrace } from '../traces/trace.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The sources' bench/ (the compiled bench runs elsewhere; RESUMECHECK_ROOT names the checkout then). */
const BENCH_DIR = process.env['RESUMECHECK_ROOT'] === undefined ? HERE : join(process.env['RESUMECHECK_ROOT'], 'bench');
export const EXPECTED_PATH = join(BENCH_DIR, 'findings.expected.json');
const CORPUS_DIR = join(BENCH_DIR, '..', 'traces', 'corpus');

/** Runs of each planted target's fuzz: the CLI's default. */
export const PLANTED_RUNS = 2000;

/** The SDK job: the main job's target, with fewer runs (seconds, not a minute). */
export const SDK_JOB = { target: 'sdk-shared', runs: 500 } as const;

/** One finding of a fuzz. */
export interface PlantedFinding {
  readonly property: PropertyName;
  /** How it happened (sim/signature.ts): a property keeps up to the CLI's --per-property of them. */
  readonly signature: string | null;
  readonly run: number;
  readonly foundLength: number;
  readonly choices: readonly number[];
}

/** One stored counterexample shrunk again. */
export interface CorpusMinimum {
  readonly file: string;
  readonly property: PropertyName;
  readonly recordedLength: number;
  /** The property the shrunk run violates (the same as `property` unless the shrinker broke it). */
  readonly shrunkProperty: PropertyName | null;
  readonly choices: readonly number[];
}

/** The whole document. */
export interface Findings {
  readonly planted: Readonly<Record<string, readonly PlantedFinding[]>>;
  readonly sdkJob: readonly PlantedFinding[];
  readonly corpus: readonly CorpusMinimum[];
}

/** A planted target's fuzz config, as the CLI resolves it: a dual-era target's bugs need both eras (`mixed`). */
export function plantedConfig(target: Target): SimConfig {
  return resolveConfig({ seed: '1', ...(target.eras?.includes('modern') === true ? { protocol: 'mixed' as const } : {}) });
}

/** The fuzz's findings on one target (seed 1, every property, one finding per property). */
async function fuzzFindings(target: Target, runs: number): Promise<PlantedFinding[]> {
  const outcome = await fuzz({ target, config: plantedConfig(target), runsMax: runs, timeMs: null, stopAtFirst: false, perProperty: PER_PROPERTY_DEFAULT });
  return outcome.findings.map((finding) => ({
    property: finding.trace.verdict!.property,
    signature: finding.trace.verdict!.signature ?? null,
    run: finding.run,
    foundLength: finding.original.choices.length,
    choices: finding.trace.choices,
  }));
}

/** The fuzz's findings on one planted target. */
export function plantedFindings(target: Target): Promise<PlantedFinding[]> {
  return fuzzFindings(target, PLANTED_RUNS);
}

/** The SDK job's findings. */
export async function sdkJobFindings(): Promise<PlantedFinding[]> {
  return fuzzFindings(await targetEntry(SDK_JOB.target)!.load(), SDK_JOB.runs);
}

/** The stored counterexamples of the SDK server targets (kind `sdk`, not the client ones), by file name. */
export function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.json'))
    .filter((file) => {
      const trace = parseTrace(readFileSync(join(CORPUS_DIR, file), 'utf8'), file);
      return trace.verdict !== null && targetEntry(trace.target)?.kind === 'sdk';
    })
    .sort();
}

/** One stored counterexample, shrunk again. */
export async function corpusMinimum(file: string): Promise<CorpusMinimum> {
  const trace = parseTrace(readFileSync(join(CORPUS_DIR, file), 'utf8'), file);
  const target = await targetEntry(trace.target)!.load();
  const property = trace.verdict!.property;
  const only = trace.properties === null ? {} : { properties: trace.properties };
  // The mechanism it fails by now is kept, as the shrink command keeps it.
  const signature = (await runSimulation(target, trace.config, sequenceChoices(trace.choices), only)).violation?.signature;
  const shrink = await shrinkChoices(target, trace.config, trace.choices, property, DEFAULT_SHRINK_BOUNDS, { ...only, ...(signature === undefined ? {} : { signature }) });
  const shrunk = await runSimulation(target, trace.config, sequenceChoices(shrink.choices), only);
  return { file, property, recordedLength: trace.choices.length, shrunkProperty: shrunk.violation?.property ?? null, choices: shrink.choices };
}

/** Everything, in a fixed order. */
export async function allFindings(log: (line: string) => void = () => {}): Promise<Findings> {
  const planted: Record<string, readonly PlantedFinding[]> = {};
  for (const target of PLANTED_TARGETS) {
    planted[target.name] = await plantedFindings(target);
    log(`${target.name}: ${planted[target.name]!.length} findings`);
  }
  const sdkJob = await sdkJobFindings();
  log(`${SDK_JOB.target} (${SDK_JOB.runs} runs): ${sdkJob.length} findings`);
  const corpus: CorpusMinimum[] = [];
  for (const file of corpusFiles()) {
    corpus.push(await corpusMinimum(file));
    log(`${file}: ${corpus.at(-1)!.choices.length} steps`);
  }
  return { planted, sdkJob, corpus };
}

/** The document as the expectation file holds it: one finding or minimum a line. */
export function renderFindings(findings: Findings): string {
  const lines = ['{', '  "planted": {'];
  const names = Object.keys(findings.planted);
  names.forEach((name, index) => {
    const list = findings.planted[name]!;
    lines.push(`    ${JSON.stringify(name)}: [${list.length === 0 ? ']' : ''}`);
    list.forEach((finding, at) => lines.push(`      ${JSON.stringify(finding)}${at < list.length - 1 ? ',' : ''}`));
    if (list.length > 0) lines.push('    ]' + (index < names.length - 1 ? ',' : ''));
    else if (index < names.length - 1) lines[lines.length - 1] += ',';
  });
  lines.push('  },', '  "sdkJob": [');
  findings.sdkJob.forEach((finding, index) => lines.push(`    ${JSON.stringify(finding)}${index < findings.sdkJob.length - 1 ? ',' : ''}`));
  lines.push('  ],', '  "corpus": [');
  findings.corpus.forEach((minimum, index) => lines.push(`    ${JSON.stringify(minimum)}${index < findings.corpus.length - 1 ? ',' : ''}`));
  lines.push('  ]', '}');
  return `${lines.join('\n')}\n`;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const findings = await allFindings((line) => process.stderr.write(`${line}\n`));
  const text = renderFindings(findings);
  if (process.argv.includes('--write')) {
    writeFileAtomically(EXPECTED_PATH, text);
    process.stderr.write(`written: ${EXPECTED_PATH}\n`);
  } else process.stdout.write(text);
}

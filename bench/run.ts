// `npm run bench`: every figure measured in one run, so each ratio compares numbers taken on the same machine
// under the same load. Prints a readable report, or one JSON document with --json. Speed targets are printed
// as pass/miss; the bench never fails on them (exit 0 unless the harness itself breaks).
//
//   npm run bench                 the whole bench (about 4-5 minutes on 2 cores)
//   npm run bench -- --json       machine-readable
//   npm run bench -- --quick      shorter windows and fewer seeds, for trying the harness out
//   npm run bench -- --only goals,sim,model,planted,fc,sdk,cli,sdk2,check-store,workers,sdkraw,mainjob,explore,clients,wire
//   npm run bench -- --suite      also times `npm test` in ours and main's checkout (goal row 2; several minutes each)
//   npm run bench -- --write-readme   also rewrites the README's goals table (between its bench:goals markers) from this run

import { writeFileAtomically } from '../traces/store.ts';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ACTION_KINDS, DEFAULT_CONFIG, PARALLEL_LEVEL_MIN, type SimConfig } from '../sim/config.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from '../targets/sdk/index.ts';
import { type CliStartup, measureCliStartup } from './cli-startup.ts';
import { FC_ENGINE_KINDS, type FcConfig, type FcSearch, fcSearch } from './fc-commands.ts';
import { BARE_ENGINE_KINDS } from './bare-loop.ts';
import { type CheckStoreRedisFigure, measureCheckStoreRedis } from './check-store-redis.ts';
import { formatCount, formatMs, formatRatio, median, nowMs, timestamp, verdict } from './measure.ts';
import { MINIMA, MINIMA_CONFIG } from './minima.ts';
import { type ModelCost, measureModel } from './model-cost.ts';
import { type PlantedResult, measurePlanted, minimumOf } from './planted.ts';
import { type SdkResult, measureSdk } from './sdk.ts';
import { type EraLoopResult, measureEraLoop } from './era-loop.ts';
import { type Sdk2Result, measureSdk2 } from './sdk2.ts';
import { type MainJobResult, measureMainJob } from './main-job.ts';
import { type ClientResult, measureClients } from './clients.ts';
import { type SdkRawResult, measureSdkRaw } from './sdk-raw.ts';
import { type WorkersResult, measureWorkers } from './workers.ts';
import { type WireResult, measureWire } from './wire.ts';
import { type BareSpeed, type SimSpeed, measureBareSpeed, measureSimSpeed } from './sim-speed.ts';
import { type Checkout, ROOT, ourCheckout, prepareCheckout, removeCheckout } from './checkouts.ts';
import { CB_COMMIT, GOALS_FULL, GOALS_QUICK, type GoalsResult, goalRows, goalsMarkdown, measureGoals, metText, renderGoals } from './goals.ts';
import { EXPLORE_THREADS, type ExploreMode, type ExplorePlan, type ExploreResult, type ExploreSearch, measureExplore } from './explore.ts';

/** The speed targets, each a threshold printed as pass or miss. */
const TARGETS = {
  referenceStepsPerSecond: 1_000_000,
  plantedMsToFirstMedian: 50,
  sdkStepsPerSecond: 5_000,
  /** A time-budgeted fuzz job's runs with 2 threads (`--workers 2`) over 1, on 2 cores. */
  workersRatio: 1.8,
  /** The README's main job's wall time, ours over main's. */
  mainJobRatio: 0.5,
  /** SDK-target steps/s over the raw cost of the same SDK requests. */
  sdkRawRatio: 0.8,
  /** Client-level steps/s (the real SDK clients). */
  clientStepsPerSecond: 5_000,
  /** `resumecheck --help`: the compiled bin at most this fraction of the tsx path's wall time. */
  cliHelpOverTsx: 0.25,
  /** The reduced exhaustive search on `reference`, 2 clients, cleared to depth 8 within this (issue 7). */
  exploreDepth8Ms: 60_000,
} as const;

/**
 * The checkout whose CLI is the main job's baseline: BENCH_BASELINE_CHECKOUT names it (e.g. a `git worktree` of the
 * commit to compare against, with its node_modules); without it, the temporary checkout of main the goals section
 * makes in this run (bench/checkouts.ts), or the figure is skipped and says so.
 */
const BASELINE_CHECKOUT = process.env['BENCH_BASELINE_CHECKOUT'] ?? '';
/** The ref the goals' "today's main" is checked out from (a temporary checkout made in this run). */
const MAIN_REF = process.env['BENCH_MAIN_REF'] ?? 'main';

const SECTIONS = ['goals', 'sim', 'model', 'planted', 'fc', 'sdk', 'cli', 'sdk2', 'workers', 'sdkraw', 'mainjob', 'check-store', 'explore', 'clients', 'wire'] as const;
type Section = (typeof SECTIONS)[number];

interface Plan {
  readonly warmupMs: number;
  readonly measureMs: number;
  /** Alternating windows of ours and the ceiling; the median of each is kept. */
  readonly rounds: number;
  readonly modelMeasureMs: number;
  readonly plantedSeeds: number;
  readonly plantedRunsMax: number;
  readonly plantedTimeMs: number;
  readonly fcSeeds: number;
  readonly fcRunsMax: number;
  readonly fcTimeMs: number;
  readonly sdkMeasureMs: number;
  readonly sdkTimeMs: number;
  /** Processes started per way for the --help wall time. */
  readonly cliRounds: number;
  readonly workersRounds: number;
  /** The `--time` budget of figure 8's job, per target. */
  readonly workersReferenceTimeMs: number;
  readonly workersSdkTimeMs: number;
  readonly explore: ExplorePlan;
  /** Over-the-wire windows (figure 12): each wire step waits real time, so they are longer. */
  readonly wireMeasureMs: number;
}

const FULL: Plan = {
  warmupMs: 1000,
  measureMs: 2000,
  rounds: 3,
  modelMeasureMs: 400,
  plantedSeeds: 20,
  plantedRunsMax: 20_000,
  plantedTimeMs: 10_000,
  fcSeeds: 20,
  fcRunsMax: 20_000,
  fcTimeMs: 2000,
  sdkMeasureMs: 3000,
  sdkTimeMs: 30_000,
  cliRounds: 10,
  workersRounds: 2,
  workersReferenceTimeMs: 8000,
  workersSdkTimeMs: 16_000,
  explore: { depths: [4, 5, 6, 7, 8], capWithoutMs: 20_000, capMergedMs: 30_000, capWithMs: 60_000, capThreadsMs: 300_000, snapshotRounds: 20 },
  wireMeasureMs: 8000,
};

const QUICK: Plan = {
  warmupMs: 300,
  measureMs: 500,
  rounds: 1,
  modelMeasureMs: 100,
  plantedSeeds: 5,
  plantedRunsMax: 20_000,
  plantedTimeMs: 5000,
  fcSeeds: 3,
  fcRunsMax: 20_000,
  fcTimeMs: 500,
  sdkMeasureMs: 1000,
  sdkTimeMs: 10_000,
  cliRounds: 3,
  workersRounds: 1,
  workersReferenceTimeMs: 3000,
  workersSdkTimeMs: 6000,
  explore: { depths: [4, 5, 6], capWithoutMs: 3000, capMergedMs: 4000, capWithMs: 5000, capThreadsMs: 5000, snapshotRounds: 3 },
  wireMeasureMs: 3000,
};

interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly node: string;
  readonly os: string;
  readonly loadAtStart: readonly number[];
  loadAtEnd: readonly number[];
  readonly commit: string;
  /** Source files (outside bench/) that differ from the commit: the bench measured those, not the commit. */
  readonly modified: readonly string[];
  readonly date: string;
}

function git(command: string): string {
  try {
    // Only the end is trimmed: a porcelain status line starts with a status column that may be a space.
    return execSync(`git ${command}`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
  } catch {
    return '';
  }
}

function describeMachine(): Machine {
  const cpuList = cpus();
  const modified = git('status --porcelain --untracked-files=no')
    .split('\n')
    .map((line) => line.slice(3))
    .filter((path) => path !== '' && !path.startsWith('bench/'));
  return {
    cpu: cpuList[0]?.model ?? 'unknown',
    cores: cpuList.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    loadAtStart: loadavg(),
    loadAtEnd: [],
    commit: git('rev-parse --short HEAD') || 'unknown',
    modified,
    date: timestamp(),
  };
}

// ---- Figure 1 ----

interface SimFigure {
  readonly stepsMax: number;
  readonly ours: SimSpeed;
  readonly oursRounds: readonly number[];
  readonly bare: BareSpeed;
  readonly bareRounds: readonly number[];
  readonly ratio: number;
}

async function figureSim(plan: Plan): Promise<SimFigure[]> {
  const figures: SimFigure[] = [];
  for (const stepsMax of [DEFAULT_CONFIG.stepsMax, 200]) {
    const ours: SimSpeed[] = [];
    const bare: BareSpeed[] = [];
    // Alternate, so a burst of load from elsewhere hits both sides alike.
    for (let round = 0; round < plan.rounds; round += 1) {
      ours.push(await measureSimSpeed(referenceTarget, { stepsMax, warmupMs: round === 0 ? plan.warmupMs : plan.warmupMs / 4, measureMs: plan.measureMs }));
      bare.push(measureBareSpeed({ stepsMax, warmupMs: round === 0 ? plan.warmupMs : plan.warmupMs / 4, measureMs: plan.measureMs }));
    }
    const pickMedian = <T extends { stepsPerSecond: number }>(list: T[]): T => [...list].sort((left, right) => left.stepsPerSecond - right.stepsPerSecond)[Math.floor(list.length / 2)]!;
    const oursMedian = pickMedian(ours);
    const bareMedian = pickMedian(bare);
    figures.push({
      stepsMax,
      ours: { ...oursMedian, violations: ours.reduce((sum, speed) => sum + speed.violations, 0), firstViolation: ours.find((speed) => speed.firstViolation !== null)?.firstViolation ?? null },
      oursRounds: ours.map((speed) => speed.stepsPerSecond),
      bare: bareMedian,
      bareRounds: bare.map((speed) => speed.stepsPerSecond),
      ratio: oursMedian.stepsPerSecond / bareMedian.stepsPerSecond,
    });
  }
  return figures;
}

// ---- Figure 4 ----

interface FcFigure {
  readonly target: string;
  readonly size: 'default' | 'medium';
  readonly searches: readonly FcSearch[];
  readonly found: number;
  /** Median over seeds, a search that found nothing counting as infinitely long. */
  readonly msToFirstMedian: number;
  readonly runsToFirstMedian: number;
  readonly shrunkLengthMedian: number | null;
}

function fcConfigOf(config: SimConfig): FcConfig {
  return { clients: config.clients, callsPerSessionMax: config.callsPerSessionMax, restartsMax: config.restartsMax, workProgressSteps: config.workProgressSteps, windowEventsMax: config.windowEventsMax };
}

function figureFc(plan: Plan, config: SimConfig, log: (line: string) => void): { figures: FcFigure[]; referenceCheck: FcSearch } {
  const fcConfig = fcConfigOf(config);
  // A baseline whose checks fire on the correct server would measure nothing: check it first.
  const referenceCheck = fcSearch(referenceTarget, fcConfig, { seed: 1, numRuns: 300, timeMs: 5000, size: 'medium' });
  const figures: FcFigure[] = [];
  for (const target of PLANTED_TARGETS) {
    for (const size of ['default', 'medium'] as const) {
      const searches: FcSearch[] = [];
      for (let seed = 1; seed <= plan.fcSeeds; seed += 1) {
        searches.push(fcSearch(target, fcConfig, { seed, numRuns: plan.fcRunsMax, timeMs: plan.fcTimeMs, ...(size === 'medium' ? { size: 'medium' as const } : {}) }));
      }
      const found = searches.filter((search) => search.found);
      figures.push({
        target: target.name,
        size,
        searches,
        found: found.length,
        msToFirstMedian: median(searches.map((search) => search.msToFirst ?? Number.POSITIVE_INFINITY)),
        runsToFirstMedian: median(searches.map((search) => (search.found ? search.runsToFirst : Number.POSITIVE_INFINITY))),
        shrunkLengthMedian: found.length === 0 ? null : median(found.map((search) => search.shrunkLength!)),
      });
    }
    log(`  fc-commands: ${target.name} done`);
  }
  return { figures, referenceCheck };
}

// ---- The report ----

interface Report {
  readonly machine: Machine;
  readonly goals: GoalsResult | null | string;
  readonly plan: Plan;
  readonly targets: typeof TARGETS;
  readonly config: SimConfig;
  readonly sim: SimFigure[] | null;
  readonly model: ModelCost[] | null;
  readonly planted: PlantedResult[] | null;
  readonly fc: { figures: FcFigure[]; referenceCheck: FcSearch } | null;
  readonly sdk: SdkResult[] | null;
  readonly cli: CliStartup | null;
  readonly sdk2: Sdk2Result[] | null;
  /** Figure 7's direct drive: the modern endpoint's operations/s beside a legacy target's under the same loop. */
  readonly sdk2Direct: EraLoopResult[] | null;
  readonly checkStore: CheckStoreRedisFigure | null;
  readonly workers: WorkersResult[] | null;
  readonly sdkRaw: SdkRawResult[] | null;
  readonly mainJob: MainJobResult | null | 'no baseline checkout';
  readonly explore: ExploreResult | null;
  readonly clients: ClientResult[] | null;
  readonly wire: WireResult[] | null;
  /** Sections that threw, with their error's first line: their figures are left out. */
  readonly failures: readonly string[];
  readonly elapsedMs: number;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function padLeft(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

function table(header: readonly string[], rows: readonly (readonly string[])[], alignRight: readonly boolean[]): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => (alignRight[column] ? padLeft(cell, widths[column]!) : pad(cell, widths[column]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

interface PlantedSummary {
  readonly target: string;
  readonly found: number;
  readonly msToFirstMedian: number;
  readonly runsMedian: number;
  readonly shrunkMedian: number | null;
  /** Median over seeds of shrunk length / known minimum of the property that seed found. */
  readonly shrunkOverMinimumMedian: number | null;
  readonly atMinimum: number;
  readonly withMinimum: number;
  readonly withExactMinimum: number;
  readonly properties: Readonly<Record<string, number>>;
  readonly outsideBreaks: readonly string[];
}

function summarisePlanted(result: PlantedResult): PlantedSummary {
  const found = result.seeds.filter((seed) => seed.found);
  const withMinimum = found.filter((seed) => seed.minimum !== null);
  const ratios = withMinimum.map((seed) => seed.shrunkLength! / (seed.minimum!.length ?? seed.minimum!.lowerBound));
  const properties: Record<string, number> = {};
  for (const seed of found) properties[seed.property!] = (properties[seed.property!] ?? 0) + 1;
  return {
    target: result.target,
    found: found.length,
    msToFirstMedian: median(result.seeds.map((seed) => (seed.found ? seed.msToFirst : Number.POSITIVE_INFINITY))),
    runsMedian: median(result.seeds.map((seed) => (seed.found ? seed.runs : Number.POSITIVE_INFINITY))),
    shrunkMedian: found.length === 0 ? null : median(found.map((seed) => seed.shrunkLength!)),
    shrunkOverMinimumMedian: ratios.length === 0 ? null : median(ratios),
    atMinimum: withMinimum.filter((seed) => seed.minimum!.length !== null && seed.shrunkLength === seed.minimum!.length).length,
    withMinimum: withMinimum.length,
    withExactMinimum: withMinimum.filter((seed) => seed.minimum!.length !== null).length,
    properties,
    outsideBreaks: Object.keys(properties).filter((property) => !result.breaks.includes(property as never)),
  };
}

/** Median shrunk length = known minimum; "?" when some seeds found a property without an exact recorded minimum. */
function shrinkVerdict(summary: PlantedSummary): string {
  if (summary.shrunkOverMinimumMedian === null) return '?';
  const met = verdict(summary.shrunkOverMinimumMedian === 1);
  return summary.withExactMinimum < summary.found ? `${met}?` : met;
}

/** Median over found searches of fc's shrunk length / the known minimum of the property it shrank to. */
function fcShrunkOverMinimum(target: string, searches: readonly FcSearch[]): number | null {
  const ratios: number[] = [];
  for (const search of searches) {
    if (!search.found || search.shrunkProperty === null || search.shrunkLength === null) continue;
    const minimum = minimumOf(target, search.shrunkProperty);
    if (minimum === null) continue;
    ratios.push(search.shrunkLength / (minimum.length ?? minimum.lowerBound));
  }
  return ratios.length === 0 ? null : median(ratios);
}

function renderExplore(result: ExploreResult, plan: ExplorePlan): string[] {
  const out: string[] = [];
  out.push(
    `12. Exhaustive search on \`reference\` (sim/search/explore.ts, 2 clients, shortest first): without the reduction (every sequence, iterative deepening), with equal worlds merged (breadth first from snapshots), with the reduction (merged, and sleep sets over independent actions) in one thread, and with it in ${EXPLORE_THREADS} threads (each depth of ${PARALLEL_LEVEL_MIN} worlds or more shared out in chunks: the same sequences and states); each search cut at ${formatMs(plan.capWithoutMs)} without, ${formatMs(plan.capMergedMs)} merged, ${formatMs(plan.capWithMs)} with, ${formatMs(plan.capThreadsMs)} in threads; load = 1-minute load average (2 cores) when the search ended`,
  );
  const find = (depth: number, mode: ExploreMode) => result.searches.find((search) => search.depth === depth && search.mode === mode)!;
  const rows: string[][] = [];
  for (const depth of plan.depths) {
    const without = find(depth, 'without');
    const merged = find(depth, 'merged');
    const withReduction = find(depth, 'with');
    const threaded = find(depth, 'threads');
    const sequences = (search: ExploreSearch) =>
      !search.ran ? 'not run (a shallower one hit the cap)' : `${formatCount(search.sequences)}${search.cut ? ` (cut at ${formatMs(search.capMs)}: depth ${search.depthCleared} cleared)` : ''}`;
    const time = (search: ExploreSearch) => (search.ran ? `${formatMs(search.ms)} (load ${search.load.toFixed(1)})` : '');
    const ratio = (search: ExploreSearch, base: ExploreSearch) => (search.ran && base.ran && !search.cut && !base.cut ? formatRatio(search.ms / base.ms) : '-');
    rows.push([
      String(depth),
      sequences(without),
      time(without),
      sequences(merged),
      merged.ran && merged.states !== null ? formatCount(merged.states) : '',
      time(merged),
      sequences(withReduction),
      withReduction.ran && withReduction.states !== null ? formatCount(withReduction.states) : '',
      withReduction.ran ? formatCount(withReduction.slept) : '',
      time(withReduction),
      ratio(withReduction, without),
      ratio(withReduction, merged),
      !threaded.ran ? 'not run' : threaded.cut ? `cut at ${formatMs(threaded.capMs)}: depth ${threaded.depthCleared} cleared` : `${threaded.sequences === withReduction.sequences || withReduction.cut ? '' : '⚠ other sequences: '}${formatMs(threaded.ms)} (load ${threaded.load.toFixed(1)}, ${threaded.threads} ${threaded.threads === 1 ? 'thread' : 'threads'})`,
      ratio(threaded, withReduction),
    ]);
  }
  out.push(
    ...table(
      ['depth', 'without: sequences', 'time', 'merged: sequences', 'states judged', 'time', 'with: sequences', 'states judged', 'slept', 'time', 'with/without', 'with/merged', `${EXPLORE_THREADS} threads: time`, 'threads/with'],
      rows,
      [true, true, true, true, true, true, true, true, true, true, true, true, true, true],
    ).map((line) => `   ${line}`),
  );
  // The goal is the tool's: the reduction with every core it has.
  const goalMode: ExploreMode = result.searches.some((search) => search.mode === 'threads') ? 'threads' : 'with';
  const eight = result.searches.find((search) => search.depth === 8 && search.mode === goalMode);
  if (eight !== undefined) {
    const met = eight.ran && !eight.cut && eight.ms <= TARGETS.exploreDepth8Ms;
    let why = '';
    if (!met && eight.ran && !eight.cut) why = ` (measured: ${formatRatio(eight.ms / TARGETS.exploreDepth8Ms)} the goal)`;
    else if (!met) {
      // How far from the goal: the deepest depth the reduction cleared within its cap, and an estimate (labelled as
      // one) from its time and the growth of its sequences a depth (the last two depths cleared).
      const cleared = result.searches.filter((search) => search.mode === goalMode && search.ran && !search.cut);
      const last = cleared[cleared.length - 1];
      const before = cleared[cleared.length - 2];
      if (last !== undefined) {
        const growth = before === undefined ? null : last.sequences / before.sequences;
        const estimate = growth === null ? null : last.ms * growth ** (8 - last.depth);
        why = ` (deepest cleared within the cap: depth ${last.depth} in ${formatMs(last.ms)}, load ${last.load.toFixed(1)}${growth === null ? '' : `; sequences grow ×${growth.toFixed(1)} a depth, so depth 8 would take about ${formatMs(estimate!)} at that rate, an estimate: ${formatRatio(estimate! / TARGETS.exploreDepth8Ms)} the goal`})`;
      }
    }
    out.push(`   target: depth 8 with the reduction${goalMode === 'threads' ? ` in ${EXPLORE_THREADS} threads` : ''} in ≤ ${formatMs(TARGETS.exploreDepth8Ms)}: ${verdict(met)}${eight.ran && !eight.cut ? ` (${formatMs(eight.ms)}, load ${eight.load.toFixed(1)})` : ''}${why}`);
  }
  const violated = result.searches.filter((search) => search.violation !== null);
  if (violated.length > 0) out.push(`   ⚠ the reference violated ${violated[0]!.violation} at depth ${violated[0]!.depth} (${violated[0]!.mode})`);
  out.push('   Each planted target\'s known minimum (bench/minima.ts), searched with the reduction at exactly that depth:');
  const minimumRows = result.minima.map((entry) => [
    entry.target,
    `${entry.minimum} (${entry.property})`,
    entry.found === null ? 'NOT FOUND ⚠' : `${entry.length} (${entry.found})${entry.found === entry.property && entry.length === entry.minimum ? '' : ' ⚠'}`,
    entry.reduced ? 'merged, sleep sets' : 'full search (no state key)',
    formatCount(entry.sequences),
    formatMs(entry.ms),
  ]);
  out.push(...table(['target', 'known minimum', 'found', 'reduction', 'sequences', 'time'], minimumRows, [false, false, false, false, true, true]).map((line) => `   ${line}`));
  out.push('   Snapshot against replay (bench/snapshot-cost.ts): replaying a prefix to its end (what the replaying search does per sequence) vs restoring the snapshot of the world it reaches, target included (what the breadth-first search does per step), and taking that snapshot (once per world expanded):');
  for (const cost of result.snapshot) {
    out.push(`   depth ${cost.depth}: replay ${cost.replayUs.toFixed(1)} µs, restore ${cost.copyUs.toFixed(1)} µs (restore/replay ${formatRatio(cost.copyUs / cost.replayUs)}), snapshot ${cost.captureUs.toFixed(1)} µs; ${cost.prefixes} prefixes`);
  }
  out.push('');
  return out;
}

function render(report: Report): string[] {
  const out: string[] = [];
  const { machine } = report;
  out.push('resumecheck bench');
  out.push(`machine: ${machine.cpu} × ${machine.cores}, ${machine.memoryGb} GB, node ${machine.node}, ${machine.os}`);
  out.push(`load average (1/5/15 min): ${machine.loadAtStart.map((value) => value.toFixed(2)).join(' ')} at start, ${machine.loadAtEnd.map((value) => value.toFixed(2)).join(' ')} at end${machine.loadAtStart[0]! > 1.2 || machine.loadAtEnd[0]! > 1.2 ? '  ⚠ other work was running: absolute rates are low, ratios hold better' : ''}`);
  out.push(`commit ${machine.commit}${machine.modified.length === 0 ? ', clean' : `, measured WITH uncommitted changes to: ${machine.modified.join(', ')}`}; ${machine.date}`);
  out.push(`config: clients ${report.config.clients}, stepsMax ${report.config.stepsMax}, callsPerSessionMax ${report.config.callsPerSessionMax}, restartsMax ${report.config.restartsMax}, workProgressSteps ${report.config.workProgressSteps}, windowEventsMax ${report.config.windowEventsMax}`);
  out.push('');

  if (typeof report.goals === 'string') out.push(`0. Issue 21's goals: not measured: ${report.goals}`, '');
  else if (report.goals !== null) out.push(...renderGoals(report.goals, goalRowsOf(report)));

  if (report.sim !== null) {
    out.push('1. Simulation speed on `reference` (fuzz-shaped random walks, single thread, after warm-up; median of alternating windows)');
    const rows = report.sim.map((figure) => [
      String(figure.stepsMax),
      `${formatCount(figure.ours.stepsPerSecond)}/s`,
      `${formatCount(figure.ours.runsPerSecond)}/s`,
      `${formatCount(figure.bare.stepsPerSecond)}/s`,
      `${formatCount(figure.bare.runsPerSecond)}/s`,
      formatRatio(figure.ratio),
      `${verdict(figure.ours.stepsPerSecond >= TARGETS.referenceStepsPerSecond)} (≥ ${formatCount(TARGETS.referenceStepsPerSecond)}/s)`,
    ]);
    out.push(...table(['stepsMax', 'ours steps', 'ours runs', 'bare (smaller) steps', 'bare runs', 'ours/bare', 'target'], rows, [true, true, true, true, true, true, false]).map((line) => `   ${line}`));
    // The bare loop is a smaller problem, not the same work: the label says so wherever its ratio is printed.
    out.push(`   bare: a smaller problem, not the same work: ${BARE_ENGINE_KINDS.length} of the ${ACTION_KINDS.length} action kinds, no HTTP requests, message bodies or decision core, no`);
    out.push('   property checked (bench/bare-loop.ts). ours/bare is how far the engine is from a loop that only walks a world, not an efficiency.');
    for (const figure of report.sim) {
      out.push(`   stepsMax ${figure.stepsMax}: windows ours ${figure.oursRounds.map(formatCount).join(', ')}; bare ${figure.bareRounds.map(formatCount).join(', ')}`);
      if (figure.ours.violations > 0) out.push(`   ⚠ the reference violated a property in ${figure.ours.violations} runs, e.g. seed ${figure.ours.firstViolation!.seed}: ${figure.ours.firstViolation!.property}: ${figure.ours.firstViolation!.explanation}`);
    }
    out.push('');
  }

  if (report.model !== null) {
    out.push('2. Model cost: one transition of the model machines, three ways (transitions/s; same event walk for all)');
    const rows = report.model.map((cost) => [
      cost.machine,
      `${cost.states}×${cost.events}`,
      `${formatCount(cost.pureTransitionPerSecond)}/s`,
      `${formatCount(cost.actorSendPerSecond)}/s`,
      `${formatCount(cost.tableStepPerSecond)}/s`,
      formatRatio(cost.tableStepPerSecond / cost.pureTransitionPerSecond),
      formatRatio(cost.tableStepPerSecond / cost.actorSendPerSecond),
      `${formatCount(cost.actorCreatePerSecond)}/s`,
      cost.restartsPerTransition.toFixed(2),
    ]);
    out.push(
      ...table(['machine', 'states×events', 'xstate transition()', 'actor.send', 'table step()', 'table/pure', 'table/actor', 'actor create', 'restarts/transition'], rows, [false, true, true, true, true, true, true, true, true]).map(
        (line) => `   ${line}`,
      ),
    );
    out.push('   (actor.send includes a fresh actor each time the walk restarts from a final state: stream and connection reach one every ~1.4 transitions)');
    out.push('');
  }

  if (report.planted !== null) {
    out.push(`3. Planted targets: ${report.plan.plantedSeeds} seeds each ('1'..'${report.plan.plantedSeeds}'), fuzz search to the first counterexample (no shrinking), then shrinking`);
    const summaries = report.planted.map(summarisePlanted);
    const rows = summaries.map((summary) => {
      const result = report.planted!.find((candidate) => candidate.target === summary.target)!;
      const known = MINIMA[summary.target];
      const overall = known?.minima.find((minimum) => minimum.property === known.overallProperty);
      return [
        summary.target,
        `${summary.found}/${result.seeds.length}`,
        formatMs(summary.msToFirstMedian),
        formatCount(summary.runsMedian),
        summary.shrunkMedian === null ? '-' : String(summary.shrunkMedian),
        overall === undefined ? '?' : `${overall.length ?? `≥${overall.lowerBound}`} (${known!.overallProperty})`,
        summary.shrunkOverMinimumMedian === null ? '-' : formatRatio(summary.shrunkOverMinimumMedian),
        `${summary.atMinimum}/${summary.withMinimum}`,
        verdict(summary.msToFirstMedian <= TARGETS.plantedMsToFirstMedian),
        shrinkVerdict(summary),
      ];
    });
    out.push(
      ...table(['target', 'found', 'median time', 'median runs', 'median shrunk', 'overall minimum', 'shrunk/min', 'at min', `time ≤ ${TARGETS.plantedMsToFirstMedian} ms`, 'shrunk = min'], rows, [false, true, true, true, true, false, true, true, false, false]).map(
        (line) => `   ${line}`,
      ),
    );
    out.push('   shrunk/min: median over seeds of (shrunk length / known minimum of the property that seed found); "at min": seeds whose shrink reached it exactly.');
    out.push('   Per target, per property found: seeds, shrunk lengths, and the known minimum:');
    for (const result of report.planted) {
      const summary = summaries.find((candidate) => candidate.target === result.target)!;
      const parts: string[] = [];
      for (const property of Object.keys(summary.properties)) {
        const seeds = result.seeds.filter((seed) => seed.property === property);
        const minimum = seeds[0]!.minimum;
        const known = minimum === null ? 'no minimum recorded' : minimum.length !== null ? `min ${minimum.length}` : `min in [${minimum.lowerBound}..${minimum.upperBound ?? '?'}]`;
        parts.push(`${property}×${seeds.length} shrunk [${seeds.map((seed) => seed.shrunkLength).join(' ')}] ${known}${result.breaks.includes(property as never) ? '' : ' ⚠ not in breaks'}`);
      }
      const misses = result.seeds.filter((seed) => !seed.found).length;
      const neverFirst = result.breaks.filter((property) => summary.properties[property] === undefined);
      out.push(`   ${result.target}: ${parts.join('; ')}${misses > 0 ? `; ${misses} seeds found nothing` : ''}${neverFirst.length > 0 ? `; breaks never found first: ${neverFirst.join(', ')}` : ''}`);
      const stale = result.witnesses.filter((witness) => !witness.replays);
      if (stale.length > 0) out.push(`     ⚠ recorded witnesses no longer replay: ${stale.map((witness) => `${witness.property} (now ${witness.got})`).join('; ')} — re-derive bench/minima.ts`);
      const below = result.seeds.filter((seed) => seed.minimum !== null && seed.shrunkLength! < (seed.minimum.length ?? seed.minimum.lowerBound));
      if (below.length > 0) out.push(`     ⚠ shrinking went BELOW the recorded minimum on seeds ${below.map((seed) => seed.seed).join(', ')}: bench/minima.ts is stale`);
      if (!result.fidelity.agrees) out.push(`     ⚠ fuzz() disagrees with the timed loop on seed 1: fuzz found run ${result.fidelity.fuzzRun} ${result.fidelity.fuzzProperty}`);
    }
    const shrinkMs = report.planted.flatMap((result) => result.seeds.filter((seed) => seed.found).map((seed) => seed.shrinkMs!));
    const evaluations = report.planted.flatMap((result) => result.seeds.filter((seed) => seed.found).map((seed) => seed.shrinkEvaluations!));
    out.push(`   shrinking: median ${formatMs(median(shrinkMs))} and ${median(evaluations)} evaluations per counterexample; fuzz() agrees with the timed loop on seed 1 for ${report.planted.filter((result) => result.fidelity.agrees).length}/${report.planted.length} targets`);
    out.push('');
  }

  if (report.fc !== null) {
    out.push(`4. Baseline: plain fast-check fc.commands + fc.modelRun (bench/fc-commands.ts), ${report.plan.fcSeeds} seeds, ≤ ${formatCount(report.plan.fcRunsMax)} runs and ≤ ${formatMs(report.plan.fcTimeMs)} a search`);
    out.push(`   it covers ${FC_ENGINE_KINDS.length} of the engine's ${ACTION_KINDS.length} action kinds (${ACTION_KINDS.filter((kind) => !FC_ENGINE_KINDS.includes(kind)).join(', ')} are not modelled)`);
    const check = report.fc.referenceCheck;
    out.push(`   sanity: on \`reference\` the baseline's checks ${check.found ? `FIRE (${check.firstProperty}): its figures below are not to be trusted` : `stay quiet over ${check.runsToFirst} runs of size medium`}`);
    const rows: string[][] = [];
    const plantedSummaries = report.planted?.map(summarisePlanted) ?? [];
    for (const target of PLANTED_TARGETS) {
      const ours = plantedSummaries.find((summary) => summary.target === target.name);
      for (const size of ['default', 'medium'] as const) {
        const figure = report.fc.figures.find((candidate) => candidate.target === target.name && candidate.size === size)!;
        const time = Number.isFinite(figure.msToFirstMedian) ? formatMs(figure.msToFirstMedian) : `> ${formatMs(report.plan.fcTimeMs)}`;
        rows.push([
          size === 'default' ? target.name : '',
          size,
          `${figure.found}/${figure.searches.length}`,
          time,
          Number.isFinite(figure.runsToFirstMedian) ? formatCount(figure.runsToFirstMedian) : '-',
          figure.shrunkLengthMedian === null ? '-' : String(figure.shrunkLengthMedian),
          ours === undefined ? '-' : Number.isFinite(figure.msToFirstMedian) ? formatRatio(ours.msToFirstMedian / figure.msToFirstMedian) : '→ 0',
          ours === undefined || ours.shrunkMedian === null || figure.shrunkLengthMedian === null ? '-' : formatRatio(ours.shrunkMedian / figure.shrunkLengthMedian),
          (() => {
            const ratio = fcShrunkOverMinimum(target.name, figure.searches);
            return ratio === null ? '-' : formatRatio(ratio);
          })(),
          [...new Set(figure.searches.filter((search) => search.found).map((search) => search.shrunkProperty))].join(' '),
        ]);
      }
    }
    out.push(
      ...table(['target', 'size', 'found', 'median time', 'median runs', 'median shrunk', 'time ours/fc', 'shrunk ours/fc', 'fc shrunk/min', 'fc shrunk property'], rows, [false, false, true, true, true, true, true, true, true, false]).map(
        (line) => `   ${line}`,
      ),
    );
    out.push('   time ours/fc: median time to first counterexample, resumecheck (figure 3) over fast-check; < 1 means resumecheck is faster; "→ 0": fast-check found nothing in most seeds.');
    out.push('   fc shrunk/min: fast-check shrinks to any failure (resumecheck keeps the property found), so its length is judged against the minimum of the property it ended on.');
    out.push('');
  }

  if (report.sdk !== null) {
    out.push('5. Real SDK targets (asynchronous): speed and the first counterexample of a seed-1 fuzz');
    const rows = report.sdk.map((result) => [
      result.target,
      `${formatCount(result.speed.stepsPerSecond)}/s`,
      `${formatCount(result.speed.runsPerSecond)}/s`,
      `${verdict(result.speed.stepsPerSecond >= TARGETS.sdkStepsPerSecond)} (≥ ${formatCount(TARGETS.sdkStepsPerSecond)}/s)`,
      result.first.found ? formatMs(result.first.msToFirst) : `none in ${formatMs(result.first.msToFirst)}`,
      result.first.found ? String(result.first.run) : String(result.first.runs),
      result.first.property ?? '-',
      result.first.length === null ? '-' : String(result.first.length),
    ]);
    out.push(...table(['target', 'steps', 'runs', 'target', 'time to first', 'run', 'property', 'length'], rows, [false, true, true, false, true, true, false, true]).map((line) => `   ${line}`));
    for (const result of report.sdk) if (result.first.explanation !== null) out.push(`   ${result.target}: ${result.first.explanation}`);
    out.push('');
  }
  if (report.cli !== null) {
    const { medianMs, rounds, ratio, ratioEverything, cpuMs } = report.cli;
    const goal = (value: number) => `${verdict(value <= TARGETS.cliHelpOverTsx)} (≤ ${formatRatio(TARGETS.cliHelpOverTsx)})`;
    const cpu = (way: keyof typeof medianMs): string => (cpuMs === null ? '?' : formatMs(cpuMs[way]));
    out.push(`6. \`resumecheck --help\` wall time, a whole process each (median of ${rounds} interleaved runs per way); the compiled bin: ${formatMs(medianMs.compiled)} wall, ${cpu('compiled')} CPU`);
    out.push(
      ...table(
        ['against', 'wall time', 'CPU', 'compiled/it (wall)', 'target'],
        [
          ['tsx path: the same --help from the sources (cli/run.ts via tsx)', formatMs(medianMs.tsx), cpu('tsx'), formatRatio(ratio), goal(ratio)],
          ['tsx, every module of the library (what the bin loaded before --help until issue 11)', formatMs(medianMs.tsxEverything), cpu('tsxEverything'), formatRatio(ratioEverything), goal(ratioEverything)],
          ['node -e 0 (the floor)', formatMs(medianMs.node), cpu('node'), formatRatio(medianMs.compiled / medianMs.node), '-'],
          ['node, an empty ES module (the floor of an ESM entry such as the bin)', formatMs(medianMs.nodeModule), cpu('nodeModule'), formatRatio(medianMs.compiled / medianMs.nodeModule), '-'],
        ],
        [false, true, true, true, false],
      ).map((line) => `   ${line}`),
    );
    out.push('   --help loads only the command table either way (9 of our modules: no SDK, zod, fast-check, trace format or node:crypto); the tsx path also starts tsx and compiles what it loads.');
    const floor = medianMs.nodeModule / medianMs.tsx;
    if (ratio > TARGETS.cliHelpOverTsx) {
      const reach = floor > TARGETS.cliHelpOverTsx ? 'out of reach for any compiled bin' : 'missed by the bin alone';
      out.push(`   against the lazy tsx path the goal is ${reach}: node alone (an empty ES module) is ${formatRatio(floor)} of it, and the bin ${formatMs(medianMs.compiled - medianMs.nodeModule)} wall above that floor.`);
    }
    out.push('   CPU is from /usr/bin/time, in steps of 10 ms.');
    out.push('');
  }

  if (report.sdk2 !== null) {
    out.push('7. The 2.x SDK targets (@modelcontextprotocol/server): speed beside a baseline measured in the same run (the 1.x target with the same store; for sdk2-modern, sdk2-dual under the same clients), and the first counterexample of a seed-1 fuzz');
    const rows = report.sdk2.map((result) => [
      result.target,
      `${formatCount(result.speed.stepsPerSecond)}/s`,
      `${verdict(result.speed.stepsPerSecond >= TARGETS.sdkStepsPerSecond)} (≥ ${formatCount(TARGETS.sdkStepsPerSecond)}/s)`,
      `${result.baseline} ${formatCount(result.baselineStepsPerSecond)}/s`,
      formatRatio(result.speed.stepsPerSecond / result.baselineStepsPerSecond),
      result.first.found ? formatMs(result.first.msToFirst) : `none in ${formatMs(result.first.msToFirst)}`,
      result.first.found ? String(result.first.run) : String(result.first.runs),
      result.first.property ?? '-',
      result.first.length === null ? '-' : String(result.first.length),
    ]);
    out.push(
      ...table(['target', 'steps', 'target', 'baseline', 'ratio', 'time to first', 'run', 'property', 'length'], rows, [false, true, false, false, true, true, true, false, true]).map(
        (line) => `   ${line}`,
      ),
    );
    for (const result of report.sdk2) if (result.first.explanation !== null) out.push(`   ${result.target}: ${result.first.explanation}`);
    for (const result of report.sdk2) {
      if (result.protocol === null) continue;
      const { modern, legacy } = result.requests;
      out.push(
        `   ${result.target}: clients asked for ${result.protocol}; requests served: ${formatCount(modern)} of that revision, ${formatCount(legacy)} legacy` +
          (modern === 0 ? ' (the simulator\'s clients do not negotiate revisions yet: this measures the rejection of their initialize)' : ''),
      );
    }
    if (report.sdk2Direct !== null) {
      out.push('   Driven directly (bench/era-loop.ts: seeded calls, tool steps and cuts on the server instance, no simulator), operations/s:');
      const modern = report.sdk2Direct[0];
      for (const result of report.sdk2Direct) {
        const ratio = result === modern || modern === undefined ? '' : `, sdk2-modern/this ${formatRatio(modern.rate.perSecond / result.rate.perSecond)}`;
        out.push(
          `     ${result.target} (${result.era === 'modern' ? '2026-07-28 calls' : '2025-11-25 calls in one session'}): ${formatCount(result.rate.perSecond)}/s, ${formatCount(result.executions)} executions, ${formatCount(result.cancelled)} cancelled${ratio}`,
        );
      }
    }
    out.push('');
  }
  if (report.checkStore !== null) {
    const figure = report.checkStore;
    out.push('11. check-store on a correct Redis Streams store (--durable, redis-server on 127.0.0.1), seed 1');
    if (figure.skipped !== null) out.push(`   skipped: ${figure.skipped}`);
    else {
      out.push(`   ${figure.runs} runs per phase: ${formatMs(figure.redisMs)} (${figure.holds ? 'holds' : 'FAILS'}), ${formatCount(figure.commands)} Redis commands, ${formatCount(figure.roundTripsPerSecond)} round trips/s`);
      out.push(`   baseline, the same check of the in-memory counter store: ${formatMs(figure.baselineMs)}; Redis / in-memory = ${formatRatio(figure.redisMs / figure.baselineMs)}`);
      out.push(
        `   peak RSS after a ${figure.shortRuns}-run check: ${figure.peakRssAfterShortMib} MiB; after the ${figure.runs}-run one: ${figure.peakRssAfterLongMib} MiB; ${figure.runs} / ${figure.shortRuns} = ${formatRatio(figure.peakRssAfterLongMib / figure.peakRssAfterShortMib)}`,
      );
      out.push(
        `   each check in the CLI's worker thread, replaced by a fresh one only on evidence (heap in use past ${Math.round(figure.recycleHeapBytes / 2 ** 20)} MiB, or more than ${figure.recycleHandles} handles left open) or after ${formatCount(figure.recycleRuns)} runs at the latest: worker threads taken: ${figure.workersShort} (${figure.shortRuns} runs), ${figure.workersLong} (${figure.runs} runs, Redis), ${figure.workersBaseline} (${figure.runs} runs, in-memory)`,
      );
    }
    out.push('');
  }

  if (report.workers !== null) {
    out.push(
      "8. Workers: a user's time-budgeted job, `resumecheck fuzz --target T --time S --no-corpus` (compiled, a whole process each: start-up, loading, JIT warm-up and shrinking's share of the budget included), runs the search made with `--workers 2` against `--workers 1`",
    );
    const rows = report.workers.map((result) => [
      result.target,
      formatMs(result.timeMs),
      formatCount(result.runsOne),
      formatCount(result.runsTwo),
      formatRatio(result.ratio),
      `${verdict(result.ratio >= TARGETS.workersRatio)} (≥ ${TARGETS.workersRatio}×)`,
      `${formatCount(result.runsShards)} (${formatRatio(result.shardsRatio)})`,
      result.ceilings.map((ceiling) => formatRatio(ceiling)).join(' '),
      result.two.map((sample, round) => `${formatRatio(sample.runs / result.one[round]!.runs)}`).join(' '),
    ]);
    out.push(
      ...table(['target', '--time', '1 thread', '2 threads', '2/1', 'target', '2 processes (/1)', 'busy loop 2/1', '2/1 per round'], rows, [false, true, true, true, true, false, true, false, false]).map(
        (line) => `   ${line}`,
      ),
    );
    for (const result of report.workers) {
      const cpu = (list: readonly { cpuMs: number | null }[]): string => (list.every((sample) => sample.cpuMs !== null) ? formatMs(median(list.map((sample) => sample.cpuMs!))) : '?');
      out.push(`   ${result.target}: CPU (all threads) 1 thread ${cpu(result.one)}, 2 threads ${cpu(result.two)}, 2 processes ${cpu(result.shards)}; medians of ${result.rounds} rounds, each round's ways alternated`);
      if (result.ratio < TARGETS.workersRatio) {
        const reasons: string[] = [];
        if (result.ceiling < TARGETS.workersRatio) reasons.push(`the machine gave a second thread ${formatRatio(result.ceiling)} (the busy loop's median in these rounds)`);
        if (result.ratio >= 0.9 * result.shardsRatio) reasons.push(`two processes making the same job at once reach ${formatRatio(result.shardsRatio)}, so the threads lose nothing to their coordination`);
        out.push(`   ${result.target}: missed by ${formatRatio(TARGETS.workersRatio / result.ratio)}${reasons.length === 0 ? '' : `; ${reasons.join('; ')}`}.`);
      }
    }
    out.push(
      `   on ${report.machine.cores} cores; load average ${report.machine.loadAtStart.map((value) => value.toFixed(2)).join(' ')} at the start of the bench: the kernel shares the CPU between sessions, so while others keep the cores busy a second thread gets little (the busy loop shows how much). Each thread (this one and each worker) loads the target and warms its JIT up itself: about 1.5 s of extra CPU on an SDK target. On an SDK target one thread alone already keeps part of the second core busy: V8's helper threads (GC, compilation) took 0.45–0.55 s of CPU per second of the searching thread's on sdk-shared (measured per thread, 3000 runs), so two threads on two cores can make about 2 / 1.5 ≈ 1.3–1.4× at the most there; two processes meet the same bound.`,
    );
    out.push('');
  }

  if (report.sdkRaw !== null) {
    out.push('9. SDK targets: simulated steps/s against the raw cost of the same SDK requests (the time inside the target boundary alone)');
    const rows = report.sdkRaw.map((result) => [
      result.target,
      formatCount(result.runs),
      `${formatCount(result.stepsPerSecond)}/s`,
      `${formatCount(result.rawStepsPerSecond)}/s`,
      formatRatio(result.ratio),
      `${verdict(result.ratio >= TARGETS.sdkRawRatio)} (≥ ${TARGETS.sdkRawRatio}×)`,
    ]);
    out.push(...table(['target', 'runs', 'steps', 'raw SDK steps', 'ours/raw', 'target'], rows, [false, true, true, true, true, false]).map((line) => `   ${line}`));
    out.push('   raw: the same runs timed inside the target only (the SDK, its event store, and the Request/SSE plumbing any direct driver needs); the rest is the simulator.');
    out.push('');
  }

  if (report.mainJob !== null) {
    out.push("10. The README's main job, `npx resumecheck fuzz --target sdk-shared` (seed 1, 2 000 runs), whole process, against main's CLI");
    if (report.mainJob === 'no baseline checkout') out.push(`   skipped: ${BASELINE_CHECKOUT === '' ? 'no baseline checkout given' : `no resumecheck checkout at ${BASELINE_CHECKOUT}`} (BENCH_BASELINE_CHECKOUT=DIR names one, e.g. a git worktree of the commit to compare against)`);
    else {
      const job = report.mainJob;
      const baseline = job.runs[0]!;
      const rows = job.runs.map((run) => [
        run.label,
        formatMs(run.wallMs),
        run === baseline ? '1.00×' : formatRatio(run.wallMs / baseline.wallMs),
        run === baseline ? '' : `${verdict(run.wallMs / baseline.wallMs <= TARGETS.mainJobRatio)} (≤ ${TARGETS.mainJobRatio}×)`,
        run.cpuMs === null ? '-' : formatMs(run.cpuMs),
        run.cpuMs === null || baseline.cpuMs === null ? '-' : run === baseline ? '1.00×' : formatRatio(run.cpuMs / baseline.cpuMs),
        String(run.exitCode),
        run === baseline ? run.properties.join(' ') : JSON.stringify(run.properties) === JSON.stringify(baseline.properties) ? 'the same' : `⚠ ${run.properties.join(' ')}`,
        run.regressions.length === 0 ? '-' : run.regressions.join(' '),
      ]);
      out.push(
        ...table(['command', 'wall', 'vs main', 'target', 'CPU', 'CPU vs main', 'exit', 'properties the search found', 'stored traces still failing'], rows, [false, true, true, false, true, true, true, false, false]).map(
          (line) => `   ${line}`,
        ),
      );
      out.push(`   baseline: ${job.baselineCheckout} at ${job.baselineCommit}; each run into a fresh temporary --out; ours with its default --workers (one per core for SDK targets, up to 4).`);
      for (const run of job.runs) out.push(`   ${run.label}: ${run.command}`);
    }
    out.push('');
  }
  if (report.explore !== null) out.push(...renderExplore(report.explore, report.plan.explore));
  if (report.clients !== null) {
    out.push('13. Client targets (the real SDK clients against the reference server, client level): steps/s against sdk-core (the real 1.32.2 server transport, server level), same run');
    const rows = report.clients.map((result) => [
      result.target,
      `${formatCount(result.speed.stepsPerSecond)}/s`,
      `${formatCount(result.speed.runsPerSecond)}/s`,
      `${formatCount(result.baseline.stepsPerSecond)}/s`,
      formatRatio(result.ratio),
      `${verdict(result.speed.stepsPerSecond >= TARGETS.clientStepsPerSecond)} (≥ ${formatCount(TARGETS.clientStepsPerSecond)}/s)`,
      `${formatCount(result.stepsPerCpuSecond)} (${formatCount(result.baselineStepsPerCpuSecond)})`,
      formatRatio(result.cpuShare),
      String(result.speed.violations),
    ]);
    out.push(
      ...table(['target', 'steps', 'runs', 'sdk-core steps', 'ours/sdk-core', 'target', 'per CPU-second (sdk-core)', 'CPU/wall', 'runs with a violation'], rows, [false, true, true, true, true, false, true, true, true]).map(
        (line) => `   ${line}`,
      ),
    );
    out.push('   steps: fault and liveness steps of fuzz-shaped walks (every property checked, so a run stops at its first violation, as a fuzz does).');
    for (const result of report.clients) {
      if (result.speed.stepsPerSecond < TARGETS.clientStepsPerSecond && result.cpuShare < 0.9 && result.stepsPerCpuSecond >= TARGETS.clientStepsPerSecond) {
        out.push(`   ${result.target}: missed by the machine's load: the window had ${formatRatio(result.cpuShare)} of a core; per CPU-second it makes ${formatCount(result.stepsPerCpuSecond)} steps.`);
      }
    }
    out.push('');
  }
  if (report.wire !== null) {
    out.push('14. The same server over loopback HTTP (--serve examples/probe-server.mjs) and in process, in one run');
    const rows = report.wire.map((result) => [
      result.target,
      `${formatCount(result.inProcessStepsPerSecond)}/s`,
      `${formatCount(result.wireStepsPerSecond)}/s`,
      result.ratio >= 0.01 ? formatRatio(result.ratio) : `1/${formatCount(1 / result.ratio)}`,
      String(result.wireRuns),
      `${Math.round(result.settleShare * 100)}%`,
    ]);
    out.push(...table(['target', 'in process', 'over the wire', 'wire/in process', 'wire runs', 'settling'], rows, [false, true, true, true, true, true]).map((line) => `   ${line}`));
    out.push(`   over the wire each operation waits for its response head, released tool steps, then ${report.wire[0]?.quietMs ?? '-'} ms of quiet (real time); restarts off in both.`);
    out.push('');
  }
  if (report.failures.length > 0) {
    out.push('Sections that failed (their figures are left out of this report):');
    for (const failure of report.failures) out.push(`   ⚠ ${failure}`);
    out.push('');
  }
  out.push(`bench took ${formatMs(report.elapsedMs)}`);
  return out;
}

/** The goal rows, with figure 1's in-process steps/s beside the CLI's when it ran. */
function goalRowsOf(report: Report) {
  const sim40 = report.sim?.find((figure) => figure.stepsMax === DEFAULT_CONFIG.stepsMax);
  return goalRows(report.goals as GoalsResult, sim40 === undefined ? null : { ours: sim40.ours.stepsPerSecond });
}

const README_START = '<!-- bench:goals (written by `npm run bench -- --write-readme`; do not edit by hand) -->';
const README_END = '<!-- /bench:goals -->';

/** Rewrites the README's goals table from this run (between its markers; temp file + rename). */
function writeReadme(report: Report, command: string): string {
  const path = join(ROOT, 'README.md');
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} block to rewrite`);
  const goals = report.goals as GoalsResult;
  const rows = goalRowsOf(report);
  const { machine } = report;
  const met = rows.filter((row) => row.met === true).length;
  const judged = rows.filter((row) => row.met !== null).length;
  const header =
    `Issue 21's goals, from one run (\`${command}\`, ${machine.date.slice(0, 10)}, commit ${machine.commit}${machine.modified.length === 0 ? '' : ' with uncommitted changes'}, ` +
    `${machine.cores} cores, Node ${machine.node}, load average ${machine.loadAtStart[0]!.toFixed(1)} at the start and ${machine.loadAtEnd[0]!.toFixed(1)} at the end, the whole bench ${formatMs(report.elapsedMs)}): ` +
    `${met} of ${judged} judged goals met (${rows.map((row, index) => `${index + 1} ${metText(row.met)}`).join(', ')}). Every baseline is a temporary checkout built in that run; figures are whole processes.`;
  const block = [README_START, ...goalsMarkdown(goals, rows, header), README_END].join('\n');
  writeFileAtomically(path, text.slice(0, start) + block + text.slice(end + README_END.length));
  return path;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      suite: { type: 'boolean', default: false },
      'write-readme': { type: 'boolean', default: false },
    },
  });
  const plan = values.quick ? QUICK : FULL;
  const only = new Set<Section>((values.only?.split(',') ?? SECTIONS) as Section[]);
  for (const section of only) {
    if (!SECTIONS.includes(section)) {
      process.stderr.write(`--only takes ${SECTIONS.join(',')}; got ${section}\n`);
      process.exit(2);
    }
  }
  const log = (line: string) => {
    if (!values.json) process.stderr.write(`${line}\n`);
  };
  const started = nowMs();
  const machine = describeMachine();
  // The planted figures are judged against minima derived under one config: use that one.
  const config: SimConfig = { ...MINIMA_CONFIG };
  if (JSON.stringify({ ...DEFAULT_CONFIG, seed: '' }) !== JSON.stringify({ ...MINIMA_CONFIG, seed: '' })) {
    log('note: DEFAULT_CONFIG differs from the config bench/minima.ts was derived under; the planted figures use the latter');
  }

  // The baselines of the goals (and figure 10's, unless BENCH_BASELINE_CHECKOUT names one): temporary checkouts of
  // today's main and of cb69534, built in this run and removed at its end.
  const temporaries: Checkout[] = [];
  let goals: GoalsResult | null | string = null;
  let mainCheckout: Checkout | null = null;
  if (only.has('goals') || (only.has('mainjob') && BASELINE_CHECKOUT === '')) {
    try {
      log(`preparing the baseline checkouts (${MAIN_REF}${only.has('goals') ? `, ${CB_COMMIT}` : ''})...`);
      mainCheckout = prepareCheckout(MAIN_REF, 'main', log);
      temporaries.push(mainCheckout);
      if (only.has('goals')) {
        const cb = prepareCheckout(CB_COMMIT, CB_COMMIT, log);
        temporaries.push(cb);
        log('0/12 issue 21 goals...');
        goals = 'measuring';
        goals = await measureGoals({ ours: ourCheckout(), main: mainCheckout, cb }, ROOT, { ...(values.quick ? GOALS_QUICK : GOALS_FULL), suite: values.suite === true }, log);
      }
    } catch (error) {
      for (const checkout of temporaries.splice(0)) removeCheckout(checkout);
      mainCheckout = null;
      goals = `${goals === 'measuring' ? 'the goals section failed' : 'the baseline checkouts could not be made'}: ${(error as Error).message}`;
      log(goals);
    }
  }
  // A section that throws is reported as failed (its figure left out) and the bench goes on: one broken figure does not
  // cost the others, which may have taken an hour.
  const failures: string[] = [];
  const guard = async <T>(section: string, body: () => Promise<T> | T): Promise<T | null> => {
    try {
      return await body();
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      failures.push(`${section}: ${message}`);
      log(`  ${section} FAILED: ${message}`);
      return null;
    }
  };
  try {
    log('1/12 simulation speed...');
    const sim = only.has('sim') ? await guard('sim', () => figureSim(plan)) : null;
    log('2/12 model cost...');
    const model = only.has('model') ? await guard('model', () => measureModel({ warmupMs: plan.modelMeasureMs / 2, measureMs: plan.modelMeasureMs })) : null;
    log('3/12 planted targets...');
    const planted = !only.has('planted')
      ? null
      : await guard('planted', async () => {
          const list: PlantedResult[] = [];
          for (const target of PLANTED_TARGETS) {
            // A dual-era target's minima (and bugs) need its protocol (bench/minima.ts states it).
            list.push(await measurePlanted(target, { ...config, ...(MINIMA[target.name]?.protocol === undefined ? {} : { protocol: MINIMA[target.name]!.protocol }) }, { seeds: plan.plantedSeeds, runsMax: plan.plantedRunsMax, timeMs: plan.plantedTimeMs }));
            log(`  ${target.name} done`);
          }
          return list;
        });
    log('4/12 fast-check baseline...');
    const fc = only.has('fc') ? await guard('fc', () => figureFc(plan, config, log)) : null;
    log('5/12 SDK targets...');
    const sdk = !only.has('sdk')
      ? null
      : await guard('sdk', async () => {
          const list: SdkResult[] = [];
          for (const target of [sdkTarget, sdkSharedTarget, sdkCoreTarget]) {
            list.push(await measureSdk(target, DEFAULT_CONFIG, { warmupMs: plan.warmupMs, measureMs: plan.sdkMeasureMs, runsMax: 20_000, timeMs: plan.sdkTimeMs }));
          }
          return list;
        });
    log('6/12 --help wall time...');
    const cli = only.has('cli') ? await guard('cli', () => measureCliStartup(plan.cliRounds)) : null;
    log('7/12 SDK 2.x targets...');
    const sdk2 = only.has('sdk2') ? await guard('sdk2', () => measureSdk2(DEFAULT_CONFIG, { warmupMs: plan.warmupMs, measureMs: plan.sdkMeasureMs, runsMax: 20_000, timeMs: plan.sdkTimeMs }, sdk, log)) : null;
    const sdk2Direct = !only.has('sdk2')
      ? null
      : await guard('sdk2 direct', async () => {
          const { sdk2ModernTarget, sdk2CoreTarget } = await import('../targets/sdk2/index.ts');
          const window = { warmupMs: plan.warmupMs, measureMs: plan.sdkMeasureMs };
          // The baseline right after the modern endpoint, so both see the same load.
          return [await measureEraLoop(sdk2ModernTarget, 'modern', window), await measureEraLoop(sdk2CoreTarget, 'legacy', window)];
        });
    log('8/12 workers...');
    const workers = !only.has('workers')
      ? null
      : await guard('workers', async () => [
          await measureWorkers('reference', { timeMs: plan.workersReferenceTimeMs, rounds: plan.workersRounds, ceilingMs: plan.measureMs / 2 }),
          await measureWorkers('sdk-shared', { timeMs: plan.workersSdkTimeMs, rounds: plan.workersRounds, ceilingMs: plan.measureMs / 2 }),
        ]);
    log('9/12 SDK raw cost...');
    const sdkRaw = !only.has('sdkraw')
      ? null
      : await guard('sdkraw', async () => {
          const list: SdkRawResult[] = [];
          for (const target of [sdkTarget, sdkSharedTarget, sdkCoreTarget]) list.push(await measureSdkRaw(target, DEFAULT_CONFIG, { warmupMs: plan.warmupMs, measureMs: plan.sdkMeasureMs }));
          return list;
        });
    log('10/12 the main job against a baseline checkout...');
    const mainJob = only.has('mainjob') ? await guard('mainjob', () => measureMainJob({ baselineCheckout: BASELINE_CHECKOUT !== '' ? BASELINE_CHECKOUT : (mainCheckout?.dir ?? '') }) ?? ('no baseline checkout' as const)) : null;
    log('11/12 check-store on Redis...');
    const checkStore = only.has('check-store') ? await guard('check-store', () => measureCheckStoreRedis({ runs: values.quick ? 200 : 2000, seed: '1' })) : null;
    log('12/12 exhaustive search...');
    const exploreResult = only.has('explore') ? await guard('explore', () => measureExplore(config, plan.explore, log)) : null;
    log('client targets...');
    const clients = !only.has('clients')
      ? null
      : await guard('clients', async () => {
          const { clientSdkTarget } = await import('../targets/clients/client-sdk.target.ts');
          const { clientSdk2Target } = await import('../targets/clients/client-sdk2.target.ts');
          return measureClients([clientSdkTarget, clientSdk2Target], sdkCoreTarget, { warmupMs: plan.warmupMs, measureMs: plan.sdkMeasureMs, config: DEFAULT_CONFIG });
        });
    log('over the wire...');
    let wire: WireResult[] | null = null;
    if (only.has('wire')) {
      wire = [];
      // Each server apart: one that fails leaves the other's figure.
      for (const target of [referenceTarget, sdkTarget]) {
        const result = await guard(`wire (${target.name})`, () => measureWire(target, { measureMs: plan.sdkMeasureMs, wireMeasureMs: plan.wireMeasureMs }));
        if (result !== null) wire.push(result);
      }
    }
    machine.loadAtEnd = loadavg();
    const report: Report = { machine, goals, plan, targets: TARGETS, config, sim, model, planted, fc, sdk, cli, sdk2, sdk2Direct, workers, sdkRaw, mainJob, checkStore, explore: exploreResult, clients, wire, failures, elapsedMs: nowMs() - started };
    if (values.json) process.stdout.write(`${JSON.stringify(report, (_key, value: unknown) => (value === Number.POSITIVE_INFINITY ? 'Infinity' : value), 2)}\n`);
    else process.stdout.write(`${render(report).join('\n')}\n`);
    if (values['write-readme'] === true) {
      if (report.goals === null || typeof report.goals === 'string') log('--write-readme: the goals were not measured in this run; README.md left as it was');
      else log(`README.md's goals table rewritten from this run: ${writeReadme(report, `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`)}`);
    }
  } finally {
    for (const checkout of temporaries) removeCheckout(checkout);
  }
}

await main();

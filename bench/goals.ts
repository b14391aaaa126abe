// Issue 21's goals ("speed where users wait"), each measured in the same bench run against baselines built in that run
// (bench/checkouts.ts: a temporary checkout of today's main, and of cb69534 where the goal names it), each a whole
// process of each checkout's own CLI, and printed as a figure, its baselines, the ratios and whether the goal is met:
//
//   1. reference steps/s through the CLI: `fuzz --target reference --time 10s --no-corpus --workers 1 --json` (cb69534
//      has neither flag: it had no corpus and one thread), steps ÷ the 10 s budget; 3 rounds, the order of the
//      checkouts turned each round, medians (of the rates, and of the per-round ratios). Goal: ≥ 1.0× cb69534's.
//   2. `npm test` wall time, whole process (build, type check, every test file): only with --suite (five minutes or
//      more per checkout, and a suite is not a benchmark to run by default); ours and main's, one after the other.
//      Goal: ≤ 2 min on a quiet machine (the load average is printed beside it).
//   3. `explore --target reference --depth 8 --json` (2 clients, default threads), ours and main's, the verdict and the
//      sequences compared. Goal: ≤ 60 s.
//   4. Shrinking's share of the --no-corpus main job: bench/shrink-share.mjs, the fuzz of `fuzz --target sdk-shared
//      --no-corpus` (seed 1, 2 000 runs, default workers, as many findings a property as each checkout's CLI keeps)
//      through each checkout's compiled library, share = the fuzz's time after its search (shrinking, and recording the
//      shrunk traces) ÷ the fuzz's time. Goal: ≤ 30 %, with the same properties found and, for each, a shortest trace
//      no longer than main's (a checkout that keeps several mechanisms of a property is held to its shortest: which
//      mechanism a search meets first is not the shrinker's doing).
//   5. `check-store check-store/fixtures/core-store.ts --runs N --json` (resumecheck/event-store, in memory: a store
//      every compared commit has) at 200 and 2 000 runs, ours, main's and cb69534's. Goal: ours at 2 000 ≤ 10× ours at
//      200, and ≤ 1.0× cb69534's at 2 000 (wall time).
//   6. The served reference's wire fuzz, `fuzz --serve "node examples/probe-server.mjs --target reference" --json` (its
//      default 20 runs), ours and main's. Goal: ≤ 30 s.
//   7. The default matrix, `matrix --json`, ours and main's, the cells compared. Goal: ≤ 3 min.
//
// Every process has a cap (a hang guard, printed when hit: the figure is then a lower bound and the goal missed).

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Checkout, type TimedRun, cliArgs, lastJson, timedRun } from './checkouts.ts';
import { formatCount, formatMs, formatRatio, median } from './measure.ts';

/** The thresholds of issue 21. */
export const GOALS = {
  /** Reference steps/s through the CLI, ours over cb69534's. */
  stepsOverCb: 1.0,
  suiteMs: 120_000,
  exploreDepth8Ms: 60_000,
  shrinkShare: 0.3,
  /** check-store at 2 000 runs over 200 runs, ours. */
  checkStoreGrowth: 10,
  /** check-store at 2 000 runs, ours over cb69534's. */
  checkStoreOverCb: 1.0,
  wireMs: 30_000,
  matrixMs: 180_000,
} as const;

/** The commit the steps/s and check-store goals compare with (the simulator and the checker before their slowdown). */
export const CB_COMMIT = 'cb69534';

/** What one bench run measures. */
export interface GoalsPlan {
  /** Sizes cut down for trying the harness: nothing is judged then. */
  readonly quick: boolean;
  readonly stepsRounds: number;
  readonly stepsTimeS: number;
  readonly checkStoreRuns: readonly [number, number];
  readonly exploreDepth: number;
  readonly wireArgs: readonly string[];
  readonly matrixArgs: readonly string[];
  /** Measure `npm test` too (row 2). */
  readonly suite: boolean;
  readonly capMs: { readonly steps: number; readonly suite: number; readonly explore: number; readonly shrink: number; readonly checkStore: number; readonly wire: number; readonly matrix: number };
}

export const GOALS_FULL: Omit<GoalsPlan, 'suite'> = {
  quick: false,
  stepsRounds: 3,
  stepsTimeS: 10,
  checkStoreRuns: [200, 2000],
  exploreDepth: 8,
  wireArgs: [],
  matrixArgs: [],
  capMs: { steps: 120_000, suite: 1_800_000, explore: 900_000, shrink: 900_000, checkStore: 900_000, wire: 900_000, matrix: 1_800_000 },
};

export const GOALS_QUICK: Omit<GoalsPlan, 'suite'> = {
  quick: true,
  stepsRounds: 1,
  stepsTimeS: 2,
  checkStoreRuns: [20, 200],
  exploreDepth: 5,
  wireArgs: ['--runs', '2'],
  matrixArgs: ['--runs', '50', '--target', 'reference', '--target', 'no-ledger'],
  capMs: { steps: 60_000, suite: 1_800_000, explore: 120_000, shrink: 600_000, checkStore: 300_000, wire: 300_000, matrix: 300_000 },
};

/** One process of one checkout, as the report keeps it. */
export interface SideRun {
  readonly checkout: string;
  readonly wallMs: number;
  readonly cpuMs: number | null;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** Why its figure could not be read (no JSON, a crash), or null. */
  readonly failed: string | null;
  /** The 1-minute load average when it ended (2 cores: above 2, other work took part of them). */
  readonly load: number;
}

function sideRun(checkout: Checkout, run: TimedRun, failed: string | null): SideRun {
  return { checkout: checkout.label, wallMs: run.wallMs, cpuMs: run.cpuMs, exitCode: run.exitCode, timedOut: run.timedOut, failed: run.timedOut ? null : failed, load: loadavg()[0]! };
}

function failure(run: Pick<TimedRun, 'exitCode' | 'stderr'>): string {
  // Colour codes (vitest's, say) are dropped: the line goes into the README.
  const last = (run.stderr.replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n').at(-1) ?? '').slice(0, 200);
  return `exit ${run.exitCode ?? 'by signal'}${last === '' ? '' : `: ${last}`}`;
}

/** Failed tests named at the most in a suite's failure, each with the first line of its error. */
const SUITE_FAILURES_NAMED = 5;

/**
 * Why `npm test` failed: the tests vitest lists as failed (its `FAIL  file > test` lines), each with the first line of
 * its error after it, so a test that fails only under load is named; the last line of its output when it lists none
 * (the build or the type check failed).
 */
export function suiteFailure(run: Pick<TimedRun, 'exitCode' | 'stdout' | 'stderr'>): string {
  const lines = `${run.stdout}\n${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const named: string[] = [];
  lines.forEach((line, index) => {
    const test = /^\s*FAIL\s+(.+?)\s*$/.exec(line)?.[1];
    if (test === undefined) return;
    const error = lines.slice(index + 1).find((next) => next.trim() !== '')?.trim() ?? '';
    const entry = `${test}${error === '' ? '' : ` (${error.slice(0, 120)})`}`;
    if (!named.includes(entry)) named.push(entry);
  });
  if (named.length === 0) return failure(run);
  const more = named.length > SUITE_FAILURES_NAMED ? `; and ${named.length - SUITE_FAILURES_NAMED} more` : '';
  return `exit ${run.exitCode ?? 'by signal'}: ${named.length} failed: ${named.slice(0, SUITE_FAILURES_NAMED).join('; ')}${more}`;
}

/** A fresh `--out` directory for one process, removed after it. */
async function withOut<T>(body: (out: string) => Promise<T>): Promise<T> {
  const out = mkdtempSync(join(tmpdir(), 'resumecheck-bench-out-'));
  try {
    return await body(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---- 1. steps/s ----

export interface StepsSide extends SideRun {
  readonly steps: number | null;
  readonly runs: number | null;
  /** Steps ÷ the budget. */
  readonly stepsPerSecond: number | null;
}

export interface StepsFigure {
  readonly timeS: number;
  /** Per round, one run per checkout. */
  readonly rounds: ReadonlyArray<readonly StepsSide[]>;
}

async function measureSteps(checkouts: readonly Checkout[], plan: GoalsPlan, log: (line: string) => void): Promise<StepsFigure> {
  const rounds: StepsSide[][] = [];
  for (let round = 0; round < plan.stepsRounds; round += 1) {
    // The order turned each round, so a burst of load elsewhere does not always hit the same checkout.
    const order = checkouts.map((_, index) => checkouts[(index + round) % checkouts.length]!);
    const sides: StepsSide[] = [];
    for (const checkout of order) {
      const side = await withOut(async (out) => {
        const flags = checkout.label === CB_COMMIT ? [] : ['--no-corpus', '--workers', '1'];
        const run = await timedRun(process.execPath, cliArgs(checkout, ['fuzz', '--target', 'reference', '--time', `${plan.stepsTimeS}s`, ...flags, '--out', join(out, 'found'), '--json']), { cwd: checkout.dir, capMs: plan.capMs.steps });
        const json = lastJson(run.stdout);
        const steps = typeof json?.['steps'] === 'number' ? json['steps'] : null;
        const runs = typeof json?.['runs'] === 'number' ? json['runs'] : null;
        return { ...sideRun(checkout, run, steps === null ? failure(run) : null), steps, runs, stepsPerSecond: steps === null ? null : steps / plan.stepsTimeS };
      });
      sides.push(side);
      log(`  steps/s: ${checkout.label} ${side.stepsPerSecond === null ? side.failed : `${formatCount(side.stepsPerSecond)}/s`}`);
    }
    rounds.push(sides);
  }
  return { timeS: plan.stepsTimeS, rounds };
}

// ---- 2. npm test ----

export interface SuiteSide extends SideRun {
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export type SuiteFigure = { readonly measured: false } | { readonly measured: true; readonly sides: readonly SuiteSide[] };

async function measureSuite(checkouts: readonly Checkout[], plan: GoalsPlan, log: (line: string) => void): Promise<SuiteFigure> {
  if (!plan.suite) return { measured: false };
  const sides: SuiteSide[] = [];
  for (const checkout of checkouts) {
    const loadBefore = loadavg()[0]!;
    const run = await timedRun('npm', ['test'], { cwd: checkout.dir, capMs: plan.capMs.suite });
    const failed = run.exitCode === 0 ? null : suiteFailure(run);
    sides.push({ ...sideRun(checkout, run, failed), loadBefore, loadAfter: loadavg()[0]! });
    log(`  npm test: ${checkout.label} ${formatMs(run.wallMs)} (${failed ?? 'exit 0'})`);
  }
  return { measured: true, sides };
}

// ---- 3. explore ----

export interface ExploreSide extends SideRun {
  readonly sequences: number | null;
  readonly states: number | null;
  readonly depthCleared: number | null;
  readonly threads: number | null;
  /** The property of the counterexample found, or null (none up to the depth). */
  readonly violation: string | null;
}

export interface ExploreFigure {
  readonly depth: number;
  readonly sides: readonly ExploreSide[];
}

async function measureExploreGoal(checkouts: readonly Checkout[], plan: GoalsPlan, log: (line: string) => void): Promise<ExploreFigure> {
  const sides: ExploreSide[] = [];
  for (const checkout of checkouts) {
    const side = await withOut(async (out) => {
      const run = await timedRun(process.execPath, cliArgs(checkout, ['explore', '--target', 'reference', '--depth', String(plan.exploreDepth), '--out', join(out, 'found'), '--json']), { cwd: checkout.dir, capMs: plan.capMs.explore });
      const json = lastJson(run.stdout);
      const number = (key: string): number | null => (typeof json?.[key] === 'number' ? (json[key] as number) : null);
      const violation = json?.['violation'];
      return {
        ...sideRun(checkout, run, json === null ? failure(run) : null),
        sequences: number('sequences'),
        states: number('states'),
        depthCleared: number('depthCleared'),
        threads: number('threads'),
        violation: typeof violation === 'object' && violation !== null ? String((violation as Record<string, unknown>)['property']) : null,
      };
    });
    sides.push(side);
    log(`  explore depth ${plan.exploreDepth}: ${checkout.label} ${formatMs(side.wallMs)}${side.timedOut ? ' (cut)' : ''}`);
  }
  return { depth: plan.exploreDepth, sides };
}

// ---- 4. shrinking's share ----

export interface ShrinkFinding {
  readonly property: string;
  /** Its mechanism (the verdict's signature), null where the checkout had none. */
  readonly signature?: string | null;
  readonly run: number;
  readonly originalLength: number;
  readonly shrunkLength: number;
  readonly evaluations: number;
  readonly cutShort: boolean;
}

export interface ShrinkSide extends SideRun {
  readonly workers: number | null;
  /** Findings kept a property (the checkout's CLI default). */
  readonly perProperty: number | null;
  readonly elapsedMs: number | null;
  readonly searchMs: number | null;
  readonly findings: readonly ShrinkFinding[];
}

export interface ShrinkFigure {
  readonly sides: readonly ShrinkSide[];
}

async function measureShrinkShare(checkouts: readonly Checkout[], root: string, plan: GoalsPlan, log: (line: string) => void): Promise<ShrinkFigure> {
  const sides: ShrinkSide[] = [];
  for (const checkout of checkouts) {
    // The runner is this checkout's file; the library it drives is the checkout's own compiled dist/.
    const run = await timedRun(process.execPath, [join(root, 'bench', 'shrink-share.mjs'), checkout.dir], { cwd: checkout.dir, capMs: plan.capMs.shrink });
    const json = lastJson(run.stdout);
    const number = (key: string): number | null => (typeof json?.[key] === 'number' ? (json[key] as number) : null);
    const side: ShrinkSide = {
      ...sideRun(checkout, run, json === null ? failure(run) : null),
      workers: number('workers'),
      perProperty: number('perProperty'),
      elapsedMs: number('elapsedMs'),
      searchMs: number('searchMs'),
      findings: Array.isArray(json?.['findings']) ? (json['findings'] as ShrinkFinding[]) : [],
    };
    sides.push(side);
    log(`  shrinking's share: ${checkout.label} ${side.elapsedMs === null || side.searchMs === null ? side.failed : `${Math.round(((side.elapsedMs - side.searchMs) / side.elapsedMs) * 100)} %`}`);
  }
  return { sides };
}

/**
 * Goal 4's comparison: the same properties found, and for each a shortest trace no longer than main's. A checkout that
 * keeps several mechanisms of a property is held to its shortest: which mechanism a search meets first is not the
 * shrinker's doing, and each checkout's CLI prints them all.
 */
export function compareShortest(ours: readonly ShrinkFinding[], main: readonly ShrinkFinding[]): { readonly compared: string; readonly sameOrShorter: boolean } {
  const shortest = (findings: readonly ShrinkFinding[]): Map<string, number> => {
    const lengths = new Map<string, number>();
    for (const finding of findings) lengths.set(finding.property, Math.min(finding.shrunkLength, lengths.get(finding.property) ?? Number.POSITIVE_INFINITY));
    return lengths;
  };
  const oursShortest = shortest(ours);
  const mainShortest = shortest(main);
  const properties = [...oursShortest.keys()];
  const sameProperties = properties.length === mainShortest.size && properties.every((property) => mainShortest.has(property));
  const longer = properties.filter((property) => oursShortest.get(property)! > (mainShortest.get(property) ?? Number.POSITIVE_INFINITY));
  const shorter = properties.filter((property) => oursShortest.get(property)! < (mainShortest.get(property) ?? 0));
  const compared = !sameProperties
    ? "⚠ other properties than main's"
    : longer.length > 0
      ? `⚠ longer than main's: ${longer.join(', ')}`
      : shorter.length > 0
        ? `the same properties, ${shorter.length} shorter than main's: ${shorter.join(', ')}`
        : "the same properties and shortest lengths as main's";
  return { compared, sameOrShorter: sameProperties && longer.length === 0 };
}

// ---- 5. check-store ----

export interface CheckStoreSide extends SideRun {
  readonly runs: number;
  readonly holds: boolean | null;
}

export interface CheckStoreFigure {
  readonly store: string;
  readonly sides: readonly CheckStoreSide[];
}

const STORE = 'check-store/fixtures/core-store.ts';

async function measureCheckStore(checkouts: readonly Checkout[], plan: GoalsPlan, log: (line: string) => void): Promise<CheckStoreFigure> {
  const sides: CheckStoreSide[] = [];
  for (const runs of plan.checkStoreRuns) {
    for (const checkout of checkouts) {
      const side = await withOut(async (out) => {
        // The store module of each checkout's own tree (and so its own resumecheck/event-store).
        const run = await timedRun(process.execPath, cliArgs(checkout, ['check-store', STORE, '--runs', String(runs), '--out', out, '--json']), { cwd: checkout.dir, capMs: plan.capMs.checkStore });
        const json = lastJson(run.stdout);
        const holds = typeof json?.['holds'] === 'boolean' ? json['holds'] : null;
        return { ...sideRun(checkout, run, holds === null ? failure(run) : null), runs, holds };
      });
      sides.push(side);
      log(`  check-store ${runs} runs: ${checkout.label} ${formatMs(side.wallMs)}${side.timedOut ? ' (cut)' : ''}`);
    }
  }
  return { store: STORE, sides };
}

// ---- 6. wire ----

export interface WireSide extends SideRun {
  readonly runs: number | null;
  readonly violations: readonly string[];
}

export interface WireFigure {
  readonly command: string;
  readonly sides: readonly WireSide[];
}

const SERVE = 'node examples/probe-server.mjs --target reference';

async function measureWireGoal(checkouts: readonly Checkout[], plan: GoalsPlan, log: (line: string) => void): Promise<WireFigure> {
  const sides: WireSide[] = [];
  for (const checkout of checkouts) {
    const side = await withOut(async (out) => {
      const run = await timedRun(process.execPath, cliArgs(checkout, ['fuzz', '--serve', SERVE, ...plan.wireArgs, '--out', join(out, 'found'), '--json']), { cwd: checkout.dir, capMs: plan.capMs.wire });
      const json = lastJson(run.stdout);
      const runs = typeof json?.['runs'] === 'number' ? json['runs'] : null;
      const violations = Array.isArray(json?.['violations']) ? (json['violations'] as Array<{ property: string }>).map((violation) => violation.property) : [];
      return { ...sideRun(checkout, run, runs === null ? failure(run) : null), runs, violations };
    });
    sides.push(side);
    log(`  wire fuzz: ${checkout.label} ${formatMs(side.wallMs)}${side.timedOut ? ' (cut)' : ''}`);
  }
  return { command: `fuzz --serve "${SERVE}"${plan.wireArgs.length === 0 ? '' : ` ${plan.wireArgs.join(' ')}`}`, sides };
}

// ---- 7. matrix ----

export interface MatrixSide extends SideRun {
  readonly rows: number | null;
  /** The rows' cells as JSON, to compare the checkouts' verdicts. */
  readonly cells: string | null;
}

export interface MatrixFigure {
  readonly command: string;
  readonly sides: readonly MatrixSide[];
}

async function measureMatrix(checkouts: readonly Checkout[], plan: GoalsPlan, log: (line: string) => void): Promise<MatrixFigure> {
  const sides: MatrixSide[] = [];
  for (const checkout of checkouts) {
    const run = await timedRun(process.execPath, cliArgs(checkout, ['matrix', ...plan.matrixArgs, '--json']), { cwd: checkout.dir, capMs: plan.capMs.matrix });
    const json = lastJson(run.stdout);
    const rows = Array.isArray(json?.['rows']) ? (json['rows'] as unknown[]) : null;
    sides.push({ ...sideRun(checkout, run, rows === null ? failure(run) : null), rows: rows?.length ?? null, cells: rows === null ? null : JSON.stringify(rows) });
    log(`  matrix: ${checkout.label} ${formatMs(run.wallMs)}${run.timedOut ? ' (cut)' : ''}`);
  }
  return { command: `matrix${plan.matrixArgs.length === 0 ? '' : ` ${plan.matrixArgs.join(' ')}`}`, sides };
}

// ---- The whole section ----

export interface GoalsResult {
  readonly quick: boolean;
  readonly checkouts: ReadonlyArray<{ readonly label: string; readonly commit: string; readonly how: string; readonly dir: string }>;
  readonly steps: StepsFigure;
  readonly suite: SuiteFigure;
  readonly explore: ExploreFigure;
  readonly shrink: ShrinkFigure;
  readonly checkStore: CheckStoreFigure;
  readonly wire: WireFigure;
  readonly matrix: MatrixFigure;
}

/** Measures every row. `ours`, `main`, `cb`: the checkouts (ours first). */
export async function measureGoals(checkouts: { readonly ours: Checkout; readonly main: Checkout; readonly cb: Checkout }, root: string, plan: GoalsPlan, log: (line: string) => void): Promise<GoalsResult> {
  const { ours, main, cb } = checkouts;
  const two = [ours, main];
  const three = [ours, main, cb];
  const steps = await measureSteps(three, plan, log);
  const checkStore = await measureCheckStore(three, plan, log);
  const shrink = await measureShrinkShare(two, root, plan, log);
  const explore = await measureExploreGoal(two, plan, log);
  const wire = await measureWireGoal(two, plan, log);
  const matrix = await measureMatrix(two, plan, log);
  const suite = await measureSuite(two, plan, log);
  return {
    quick: plan.quick,
    checkouts: three.map(({ label, commit, how, dir }) => ({ label, commit, how, dir })),
    steps,
    suite,
    explore,
    shrink,
    checkStore,
    wire,
    matrix,
  };
}

// ---- Rows, for the report and the README ----

/** One goal as the report's table shows it. */
export interface GoalRow {
  readonly what: string;
  readonly ours: string;
  readonly baselines: string;
  readonly goal: string;
  /** Null: not judged (not measured, quick sizes, or a checkout failed). */
  readonly met: boolean | null;
  readonly why: string;
}

function side<T extends SideRun>(sides: readonly T[], label: string): T | undefined {
  return sides.find((entry) => entry.checkout === label);
}

function timeOf(run: SideRun | undefined): string {
  if (run === undefined) return '-';
  if (run.failed !== null) return `failed (${run.failed})`;
  return `${run.timedOut ? '> ' : ''}${formatMs(run.wallMs)} (${run.cpuMs === null ? '' : `CPU ${formatMs(run.cpuMs)}, `}load ${run.load.toFixed(1)})${run.timedOut ? ', cut at the cap' : ''}`;
}

/** Finished, and its figure read (a type guard only in the true case: a false one may still be a run). */
function usable<T extends SideRun>(run: T | undefined): run is T & { readonly failed: null; readonly timedOut: false } {
  return run !== undefined && run.failed === null && !run.timedOut;
}

function share(run: ShrinkSide | undefined): number | null {
  if (run === undefined || run.elapsedMs === null || run.searchMs === null || run.elapsedMs <= 0) return null;
  return (run.elapsedMs - run.searchMs) / run.elapsedMs;
}

function percent(value: number | null): string {
  return value === null ? '-' : `${Math.round(value * 100)} %`;
}

/** The rows of the goals table. `inProcess`: figure 1's steps/s on reference at up to 40 steps, when it ran. */
export function goalRows(result: GoalsResult, inProcess: { readonly ours: number } | null): GoalRow[] {
  const rows: GoalRow[] = [];
  const judged = (met: boolean): boolean | null => (result.quick ? null : met);
  const mainCommit = result.checkouts.find((entry) => entry.label === 'main')?.commit ?? '?';

  // 1. steps/s
  {
    const rates = (label: string): number[] => result.steps.rounds.flatMap((round) => round.filter((entry) => entry.checkout === label && entry.stepsPerSecond !== null).map((entry) => entry.stepsPerSecond!));
    const ratios = (label: string): number[] =>
      result.steps.rounds.flatMap((round) => {
        const mine = side(round, label)?.stepsPerSecond ?? null;
        const base = side(round, CB_COMMIT)?.stepsPerSecond ?? null;
        return mine === null || base === null ? [] : [mine / base];
      });
    const ours = rates('ours');
    const main = rates('main');
    const cb = rates(CB_COMMIT);
    const oursRatio = ratios('ours');
    const mainRatio = ratios('main');
    const complete = ours.length === result.steps.rounds.length && cb.length === result.steps.rounds.length;
    const list = (values: number[]): string => values.map((value) => formatCount(value)).join(', ');
    rows.push({
      what: `reference steps/s through the CLI (\`fuzz --target reference --time ${result.steps.timeS}s --no-corpus --workers 1\`; steps ÷ budget, median of ${result.steps.rounds.length})`,
      ours: ours.length === 0 ? 'failed' : `${formatCount(median(ours))}/s (${list(ours)})${inProcess === null ? '' : `; in process (figure 1, up to 40 steps): ${formatCount(inProcess.ours)}/s`}`,
      baselines: `${CB_COMMIT} (its bin, no corpus, one thread): ${cb.length === 0 ? 'failed' : `${formatCount(median(cb))}/s (${list(cb)})`}; main ${mainCommit}: ${main.length === 0 ? 'failed' : `${formatCount(median(main))}/s`}${mainRatio.length === 0 ? '' : ` (${formatRatio(median(mainRatio))} ${CB_COMMIT}'s)`}`,
      goal: `≥ ${GOALS.stepsOverCb.toFixed(1)}× ${CB_COMMIT}'s`,
      met: complete ? judged(median(oursRatio) >= GOALS.stepsOverCb) : null,
      why: oursRatio.length === 0 ? 'not measured' : `${formatRatio(median(oursRatio))} ${CB_COMMIT}'s (per round: ${oursRatio.map(formatRatio).join(', ')})`,
    });
  }

  // 2. npm test
  {
    const suite = result.suite;
    if (!suite.measured) {
      rows.push({
        what: '`npm test` wall time (build, type check, every test file), whole process',
        ours: 'not measured in this run',
        baselines: `main ${mainCommit}: not measured`,
        goal: `≤ ${formatMs(GOALS.suiteMs)} on a quiet machine`,
        met: null,
        why: '`npm run bench -- --suite` runs `npm test` in each checkout (ours, then main), several minutes each',
      });
    } else {
      const ours = side(suite.sides, 'ours');
      const main = side(suite.sides, 'main');
      const quiet = ours !== undefined && ours.loadBefore <= 1.2;
      rows.push({
        what: '`npm test` wall time (build, type check, every test file), whole process',
        ours: `${timeOf(ours)}${ours === undefined ? '' : `, load ${ours.loadBefore.toFixed(1)} → ${ours.loadAfter.toFixed(1)}`}`,
        baselines: `main ${mainCommit}: ${timeOf(main)}${usable(ours) && usable(main) ? ` (ours ${formatRatio(ours.wallMs / main.wallMs)})` : ''}`,
        goal: `≤ ${formatMs(GOALS.suiteMs)} on a quiet machine`,
        met: usable(ours) ? judged(ours.wallMs <= GOALS.suiteMs) : judged(false),
        why: usable(ours) ? `${formatRatio(ours.wallMs / GOALS.suiteMs)} the goal${quiet ? '' : ` (load ${ours.loadBefore.toFixed(1)} at its start: not a quiet machine)`}` : 'did not pass or did not end',
      });
    }
  }

  // 3. explore
  {
    const ours = side(result.explore.sides, 'ours');
    const main = side(result.explore.sides, 'main');
    const verdict = (run: ExploreSide | undefined): string => (run === undefined || !usable(run) ? '' : `, ${run.violation === null ? `none up to depth ${run.depthCleared}` : `found ${run.violation}`}, ${formatCount(run.sequences ?? 0)} sequences, ${formatCount(run.states ?? 0)} states judged, ${run.threads} ${run.threads === 1 ? 'thread' : 'threads'}`);
    const same = usable(ours) && usable(main) && ours.violation === main.violation && ours.depthCleared === main.depthCleared;
    rows.push({
      what: `\`explore --target reference --depth ${result.explore.depth}\` (2 clients, default threads), whole process`,
      ours: `${timeOf(ours)}${verdict(ours)}`,
      baselines: `main ${mainCommit}: ${timeOf(main)}${verdict(main)}${usable(ours) && usable(main) ? ` (ours ${formatRatio(ours.wallMs / main.wallMs)})` : ''}`,
      goal: `≤ ${formatMs(GOALS.exploreDepth8Ms)}, the same verdict`,
      met: ours === undefined || ours.failed !== null ? null : judged(usable(ours) && ours.wallMs <= GOALS.exploreDepth8Ms && same),
      why: !usable(ours) ? (ours?.timedOut === true ? 'cut at the cap' : 'failed') : `${formatRatio(ours.wallMs / GOALS.exploreDepth8Ms)} the goal; verdict ${same ? "the same as main's" : usable(main) ? "⚠ not main's" : 'not compared (main did not finish)'}`,
    });
  }

  // 4. shrinking's share
  {
    const ours = side(result.shrink.sides, 'ours');
    const main = side(result.shrink.sides, 'main');
    const oursShare = share(ours);
    const mainShare = share(main);
    const evaluations = (run: ShrinkSide | undefined): number => run?.findings.reduce((sum, finding) => sum + finding.evaluations, 0) ?? 0;
    const describe = (run: ShrinkSide | undefined, value: number | null): string =>
      run === undefined || value === null ? timeOf(run) : `${percent(value)} (${formatMs(run.elapsedMs! - run.searchMs!)} of ${formatMs(run.elapsedMs!)}; ${run.findings.length} findings of ${new Set(run.findings.map((finding) => finding.property)).size} properties (up to ${run.perProperty ?? 1} a property), ${formatCount(evaluations(run))} shrink runs, ${run.workers} workers)`;
    const { compared, sameOrShorter } =
      ours !== undefined && main !== undefined && oursShare !== null && mainShare !== null ? compareShortest(ours.findings, main.findings) : { compared: 'not compared', sameOrShorter: false };
    rows.push({
      what: "shrinking's share of the `--no-corpus` main job (the fuzz of `fuzz --target sdk-shared --no-corpus`: the time after its search ÷ its time; bench/shrink-share.mjs)",
      ours: describe(ours, oursShare),
      baselines: `main ${mainCommit}: ${describe(main, mainShare)}`,
      goal: `≤ ${percent(GOALS.shrinkShare)}, the same or shorter traces`,
      met: oursShare === null || mainShare === null ? null : judged(oursShare <= GOALS.shrinkShare && sameOrShorter),
      why: oursShare === null ? 'not measured' : `${compared}; shrink runs ${formatCount(evaluations(ours))} vs main's ${formatCount(evaluations(main))}`,
    });
  }

  // 5. check-store
  {
    const [short, long] = result.checkStore.sides.length === 0 ? [0, 0] : [Math.min(...result.checkStore.sides.map((entry) => entry.runs)), Math.max(...result.checkStore.sides.map((entry) => entry.runs))];
    const at = (label: string, runs: number) => result.checkStore.sides.find((entry) => entry.checkout === label && entry.runs === runs);
    const pair = (label: string): string => {
      const a = at(label, short);
      const b = at(label, long);
      return `${short}: ${timeOf(a)}, ${long}: ${timeOf(b)}${usable(a) && usable(b) ? ` (×${(b.wallMs / a.wallMs).toFixed(1)})` : ''}${[a, b].some((entry) => entry?.holds === false) ? ' ⚠ FAILS' : ''}`;
    };
    const oursShort = at('ours', short);
    const oursLong = at('ours', long);
    const cbLong = at(CB_COMMIT, long);
    const mainLong = at('main', long);
    const growth = usable(oursShort) && usable(oursLong) ? oursLong.wallMs / oursShort.wallMs : null;
    const overCb = usable(oursLong) && usable(cbLong) ? oursLong.wallMs / cbLong.wallMs : null;
    rows.push({
      what: `\`check-store ${result.checkStore.store} --runs N\` (resumecheck/event-store in memory), whole process, N = ${short} and ${long}`,
      ours: pair('ours'),
      baselines: `${CB_COMMIT} (its bin): ${pair(CB_COMMIT)}; main ${mainCommit}: ${pair('main')}${usable(oursLong) && usable(mainLong) ? ` (ours at ${long}: ${formatRatio(oursLong.wallMs / mainLong.wallMs)} main's)` : ''}`,
      goal: `${long} runs ≤ ${GOALS.checkStoreGrowth}× ${short}, and ≤ ${GOALS.checkStoreOverCb.toFixed(1)}× ${CB_COMMIT}'s at ${long}`,
      met: growth === null || overCb === null ? (oursLong?.timedOut === true ? judged(false) : null) : judged(growth <= GOALS.checkStoreGrowth && overCb <= GOALS.checkStoreOverCb),
      why: `${long}/${short}: ${growth === null ? '-' : `×${growth.toFixed(1)}`}; ours/${CB_COMMIT}'s at ${long}: ${overCb === null ? '-' : formatRatio(overCb)}`,
    });
  }

  // 6. wire
  {
    const ours = side(result.wire.sides, 'ours');
    const main = side(result.wire.sides, 'main');
    const found = (run: WireSide | undefined): string => (run === undefined || !usable(run) ? '' : `, ${run.runs} runs, ${run.violations.length === 0 ? 'nothing found' : `⚠ found ${run.violations.join(', ')}`}`);
    rows.push({
      what: `the served reference over the wire, \`${result.wire.command}\`${result.quick ? '' : ' (its default 20 runs)'}, whole process`,
      ours: `${timeOf(ours)}${found(ours)}`,
      baselines: `main ${mainCommit}: ${timeOf(main)}${found(main)}${usable(ours) && usable(main) ? ` (ours ${formatRatio(ours.wallMs / main.wallMs)})` : ''}`,
      goal: `≤ ${formatMs(GOALS.wireMs)}`,
      met: ours === undefined || ours.failed !== null ? null : judged(usable(ours) && ours.wallMs <= GOALS.wireMs),
      why: usable(ours) ? `${formatRatio(ours.wallMs / GOALS.wireMs)} the goal` : 'cut at the cap',
    });
  }

  // 7. matrix
  {
    const ours = side(result.matrix.sides, 'ours');
    const main = side(result.matrix.sides, 'main');
    const same = usable(ours) && usable(main) && ours.cells === main.cells;
    rows.push({
      what: `${result.quick ? 'a small matrix' : 'the default matrix'}, \`${result.matrix.command}\`, whole process`,
      ours: `${timeOf(ours)}${usable(ours) ? `, ${ours.rows} rows` : ''}`,
      baselines: `main ${mainCommit}: ${timeOf(main)}${usable(ours) && usable(main) ? ` (ours ${formatRatio(ours.wallMs / main.wallMs)})` : ''}`,
      goal: `≤ ${formatMs(GOALS.matrixMs)}`,
      met: ours === undefined || ours.failed !== null ? null : judged(usable(ours) && ours.wallMs <= GOALS.matrixMs),
      why: usable(ours) ? `${formatRatio(ours.wallMs / GOALS.matrixMs)} the goal; cells ${same ? "the same as main's" : usable(main) ? "⚠ not main's" : 'not compared'}` : 'cut at the cap',
    });
  }
  return rows;
}

export function metText(met: boolean | null): string {
  return met === null ? 'not judged' : met ? 'met' : 'missed';
}

/** The section of the readable report. */
export function renderGoals(result: GoalsResult, rows: readonly GoalRow[]): string[] {
  const out: string[] = [];
  out.push(`0. Issue 21's goals, each a whole process of each checkout's own CLI, in this run${result.quick ? ' (--quick: sizes cut down, nothing judged)' : ''}`);
  for (const checkout of result.checkouts) out.push(`   ${checkout.label}: ${checkout.commit}, ${checkout.how}${checkout.label === 'ours' ? '' : `, a temporary checkout made in this run (${checkout.dir})`}`);
  rows.forEach((row, index) => {
    out.push(`   ${index + 1}. ${row.what}`);
    out.push(`      ours: ${row.ours}`);
    out.push(`      baselines: ${row.baselines}`);
    out.push(`      goal ${row.goal}: ${metText(row.met).toUpperCase()} — ${row.why}`);
  });
  out.push('');
  return out;
}

/** The same rows as a Markdown table (the README's). */
export function goalsMarkdown(result: GoalsResult, rows: readonly GoalRow[], header: string): string[] {
  const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [header, '', '| goal (issue 21) | ours | baselines, same run | goal | met? |', '|---|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${cell(row.what)} | ${cell(row.ours)} | ${cell(row.baselines)} | ${cell(row.goal)} | ${row.met === null ? 'not judged' : row.met ? '**met**' : '**missed**'}: ${cell(row.why)} |`);
  lines.push('', `Checkouts: ${result.checkouts.map((checkout) => `${checkout.label} ${checkout.commit} (${checkout.how})`).join('; ')}.`);
  return lines;
}

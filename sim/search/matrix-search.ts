// The matrix's search: each row searched once for all its cells, every cell getting exactly what a fuzz of its own
// would (sim/search/fuzz.ts with that property alone, stopping at its first violation: the same run seeds, walks and
// shrinks), and the matrix's tasks (a row's search, a cell's shrink) shared among this thread and the fuzz's worker
// threads (sim/search/fuzz-worker.ts), so that a cell's result never depends on which thread made it.
//
// Why one search serves a row: checking fewer properties changes no step of a run, only which violation ends it.
// Run r of the fuzz of property P alone is therefore the same as run r with any set of properties that holds P,
// up to P's first violation, as long as no other property of the set ends it earlier. So run r is made with the
// set of cells still searching; when property Q ends it, Q's cell has its first violating run, and run r is made
// again without Q, until a run ends with no violation (every cell left holds in run r, with that run's steps) or no
// cell is left: the fuzz's `eachViolation` (sim/search/fuzz-search.ts), which a fuzz of all properties makes too.
// A run without any violation (most runs of a correct target) is made once for all the row's cells
// instead of once per cell. A cell stops searching at its first violating run, as its own fuzz would.

import type { PropertyName } from '../../properties/names.ts';
import { type Attribution, attributeFinding } from '../shrink/attribution.ts';
import type { Target } from '../../targets/target.ts';
import { createActionList } from '../actions.ts';
import { levelWalk } from '../choices.ts';
import { macrotaskTurn, sharedWallMs } from '../clock.ts';
import type { SimConfig } from '../config.ts';
import { type RunResult, runSimulation } from '../engine.ts';
import { CONTROL, type Candidate, eachViolation, runSeed } from './fuzz-search.ts';
import { type ShrinkTask, type ShrunkTask, shrinkTask } from './fuzz.ts';
import { FUZZ_WORKER_MARK, type WorkerReply, type WorkerRequest, type WorkerTask } from './fuzz-worker.ts';
import { matrixRowTarget } from './matrix-rows.ts';
import { DEFAULT_SHRINK_BOUNDS } from '../shrink/shrink.ts';
import { type PoolWorker, askPoolWorker, closePoolWorkers, startPoolWorker } from './worker-thread.ts';
import { levelOf } from '../levels/level.ts';

/** What one row's search is: plain data, it crosses to worker threads. */
export interface RowPlan {
  /** The row's name (sim/search/matrix-rows.ts finds its target). */
  readonly row: string;
  /** The base config; run r gets the seed `runSeed(config.seed, r)`, as in a fuzz. */
  readonly config: SimConfig;
  /** Runs each cell makes at the most (its own fuzz's run count). */
  readonly runsMax: number;
  /** The row's cells: the properties checked there, in column order. */
  readonly properties: readonly PropertyName[];
}

/** What one cell's search found: its first violating run, or none in `runs` runs. */
export interface CellSearch {
  readonly property: PropertyName;
  /** Runs this cell's own fuzz would have made (up to and with its first violating run). */
  readonly runs: number;
  /** Their steps, fault and liveness phases together (a fuzz's count). */
  readonly steps: number;
  readonly candidate: Candidate | null;
}

/** A row's search. Plain data. */
export interface RowSearch {
  readonly row: string;
  readonly cells: readonly CellSearch[];
  /** True when a stop ended it before every cell had made its runs or found its violation. */
  readonly stopped: boolean;
  /** Simulations made in all (a run made again for each violation that ended it counts again). */
  readonly simulations: number;
}

/** How often a row's search lets the event loop run (signals, messages), in ms; decides nothing a cell finds. */
const YIELD_EVERY_MS = 50;

/** Searches one row for all its cells at once (see the file's head); `control`'s stop cell ends it early. */
export async function searchRow(target: Target, plan: RowPlan, control: Int32Array): Promise<RowSearch> {
  const actions = createActionList();
  const runs = new Map<PropertyName, number>(plan.properties.map((property) => [property, 0]));
  const steps = new Map<PropertyName, number>(plan.properties.map((property) => [property, 0]));
  const found = new Map<PropertyName, Candidate>();
  let open: readonly PropertyName[] = plan.properties;
  let simulations = 0;
  let stopped = false;
  let yieldedMs = sharedWallMs();
  for (let ordinal = 0; ordinal < plan.runsMax && open.length > 0; ordinal += 1) {
    if (sharedWallMs() - yieldedMs >= YIELD_EVERY_MS) {
      // A synchronous target never gives the event loop a turn by itself: a signal's handler waits for this.
      await macrotaskTurn();
      yieldedMs = sharedWallMs();
    }
    if (Atomics.load(control, CONTROL.stop) !== 0) {
      stopped = true;
      break;
    }
    // Ordinal j is run j + 1, as in an unsharded fuzz.
    const run = ordinal + 1;
    const runConfig: SimConfig = { ...plan.config, seed: runSeed(plan.config.seed, run) };
    const simulate = (checked: readonly PropertyName[] | null): Promise<RunResult> =>
      // Every violation of the run from one simulation (sim/every-violation.ts): eachViolation reads the rest off it.
      runSimulation(target, runConfig, levelWalk(runConfig, levelOf(target)), { properties: checked ?? open, actions, everyViolation: true });
    simulations += await eachViolation(open, open, () => Atomics.load(control, CONTROL.stop) === 0, simulate, (result, checked) => {
      const cost = result.steps + result.healSteps;
      // Each property checked made this run so far: all of them, when none ended it.
      const counted = result.violation === null ? (checked ?? open) : [result.violation.property];
      for (const property of counted) {
        runs.set(property, runs.get(property)! + 1);
        steps.set(property, steps.get(property)! + cost);
      }
      if (result.violation !== null) found.set(result.violation.property, { ordinal, run, violation: result.violation, choices: result.choices, steps: result.steps, healSteps: result.healSteps });
    });
    open = open.filter((property) => !found.has(property));
  }
  const cells = plan.properties.map((property): CellSearch => ({ property, runs: runs.get(property)!, steps: steps.get(property)!, candidate: found.get(property) ?? null }));
  return { row: plan.row, cells, stopped, simulations };
}

/** The shrink of a cell's first violating run, as its own fuzz would make it: that property alone, the default bounds. */
export function cellShrinkTask(plan: RowPlan, candidate: Candidate): ShrinkTask {
  return {
    config: { ...plan.config, seed: runSeed(plan.config.seed, candidate.run) },
    choices: candidate.choices,
    property: candidate.violation.property,
    signature: candidate.violation.signature,
    bounds: DEFAULT_SHRINK_BOUNDS,
    properties: [candidate.violation.property],
    deadlineMs: null,
  };
}

/** One task of the matrix, for whichever thread is free: plain data. */
export type MatrixTask =
  | { readonly kind: 'search'; readonly plan: RowPlan }
  | { readonly kind: 'shrink'; readonly row: string; readonly task: ShrinkTask };

/**
 * A task's result: plain data, it crosses back from worker threads. A shrunk cell of a target assembled from
 * components (an SDK target) comes with the component its counterexample is charged to, found in the same thread.
 */
export type MatrixTaskResult =
  | { readonly kind: 'searched'; readonly search: RowSearch }
  | { readonly kind: 'shrunk'; readonly shrunk: ShrunkTask; readonly attribution: Attribution | null };

/** A thread's rows' targets, each loaded once (an SDK target takes a moment). */
export function rowTargets(): (name: string) => Promise<Target> {
  const loaded = new Map<string, Promise<Target>>();
  return (name) => {
    let target = loaded.get(name);
    if (target === undefined) {
      target = matrixRowTarget(name).then((found) => {
        if (found === null) throw new Error(`assertion: the matrix has no row named ${name}`);
        return found;
      });
      loaded.set(name, target);
    }
    return target;
  };
}

/** Runs one matrix task in this thread; `control`'s stop cell ends a search or a shrink early. */
export async function runMatrixTask(task: MatrixTask, control: Int32Array, targets: (name: string) => Promise<Target>): Promise<MatrixTaskResult> {
  if (task.kind === 'search') return { kind: 'searched', search: await searchRow(await targets(task.plan.row), task.plan, control) };
  const target = await targets(task.row);
  const shrunk = await shrinkTask(target, task.task, control);
  const verdict = shrunk.trace.verdict;
  // After a stop, no replays: the row is being given up.
  const stopped = Atomics.load(control, CONTROL.stop) !== 0;
  const attribution = verdict === null || stopped ? null : await attributeFinding(target, { config: shrunk.trace.config, choices: shrunk.trace.choices, verdict });
  return { kind: 'shrunk', shrunk, attribution };
}

/** The rows' targets of this worker thread, loaded as its tasks name them. */
let workerRows: ((name: string) => Promise<Target>) | null = null;

/** A matrix task in a fuzz worker (sim/search/fuzz-worker.ts): the worker's own rows' targets, each loaded once. */
export const workerTask: WorkerTask = (task, control) => runMatrixTask(task as MatrixTask, control, (workerRows ??= rowTargets()));

/** A thread the matrix's tasks run in: this one or a worker; one task at a time. */
export type MatrixThread = (task: MatrixTask) => Promise<MatrixTaskResult>;

/**
 * `count` threads for the matrix's tasks: this thread and `count - 1` of the fuzz's worker threads, started with no
 * target of their own (each finds a task's row by name). `close` stops the workers.
 */
export function matrixThreads(count: number, control: Int32Array): { readonly threads: readonly MatrixThread[]; close(): Promise<void> } {
  const here = rowTargets();
  const workers: PoolWorker<WorkerReply>[] = Array.from({ length: Math.max(0, count - 1) }, () =>
    startPoolWorker<WorkerReply>('fuzz-worker', { mark: FUZZ_WORKER_MARK, target: null }, 'matrix worker'),
  );
  let taskId = 0;
  const threads: MatrixThread[] = [
    (task) => runMatrixTask(task, control, here),
    ...workers.map((entry): MatrixThread => (task) => {
      taskId += 1;
      const id = taskId;
      const request: WorkerRequest = { kind: 'task', id, module: 'sim/search/matrix-search', data: task, control };
      return askPoolWorker<WorkerReply, MatrixTaskResult>(entry, request, (reply, resolve) => {
        if (reply.kind === 'task-done' && reply.id === id) resolve(reply.result as MatrixTaskResult);
      });
    }),
  ];
  return { threads, close: () => closePoolWorkers(workers, 'matrix worker') };
}

/** A cell once its row's search and its shrink are done. */
export interface CellOutcome extends CellSearch {
  /** Its shrunk counterexample, recorded; null when it holds, or when a stop came before its shrink. */
  readonly shrunk: ShrunkTask | null;
  /** A stop came while it was being shrunk: the shrink may have ended early. */
  readonly shrinkCut: boolean;
  /** On an assembled target, the component its shrunk counterexample is charged to (sim/shrink/attribution.ts); else null. */
  readonly attribution: Attribution | null;
}

/** A row's cells, and whether all of them are final. */
export interface RowOutcome {
  readonly row: string;
  /** The searched cells in column order; empty when its search never ran. */
  readonly cells: readonly CellOutcome[];
  /** Every cell made its runs or found and shrank its violation. */
  readonly complete: boolean;
}

/** What the matrix is to search. */
export interface MatrixSearchOptions {
  readonly rows: readonly RowPlan[];
  readonly threads: readonly MatrixThread[];
  /** Once aborted, no task starts, and those under way end early (the shared control block's stop cell is set by the caller). */
  readonly signal?: AbortSignal;
  /** Called once per row, when all its cells are final (in whatever order rows finish). */
  readonly onRow?: (index: number, outcome: RowOutcome) => void;
}

/**
 * Runs the rows' searches and their cells' shrinks on the threads, each thread taking the next task when it is free:
 * shrinks first (so rows finish about in order), then the next row's search. Returns every row, complete or not.
 */
export async function searchMatrix(options: MatrixSearchOptions): Promise<RowOutcome[]> {
  const searches = options.rows.map((plan, index) => ({ index, plan }));
  const shrinks: Array<{ index: number; position: number; task: ShrinkTask }> = [];
  const searched: (RowSearch | null)[] = options.rows.map(() => null);
  const shrunk: (ShrunkTask | null)[][] = options.rows.map((plan) => plan.properties.map(() => null));
  const charged: (Attribution | null)[][] = options.rows.map((plan) => plan.properties.map(() => null));
  const cut: boolean[][] = options.rows.map((plan) => plan.properties.map(() => false));
  const pending: number[] = options.rows.map(() => 0);
  const outcome = (index: number): RowOutcome => {
    const search = searched[index] ?? null;
    const cells = search === null ? [] : search.cells.map((cell, position): CellOutcome => ({ ...cell, shrunk: shrunk[index]![position] ?? null, shrinkCut: cut[index]![position]!, attribution: charged[index]![position] ?? null }));
    const finished = search !== null && !search.stopped && pending[index] === 0 && !cut[index]!.includes(true);
    return { row: options.rows[index]!.row, cells, complete: finished };
  };
  const waiting: Array<() => void> = [];
  const wake = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  options.signal?.addEventListener('abort', wake, { once: true });
  const aborted = (): boolean => options.signal?.aborted === true;
  let running = 0;
  let failed = false;
  const loop = async (thread: MatrixThread): Promise<void> => {
    for (;;) {
      if (aborted() || failed) return;
      const shrink = shrinks.shift();
      const search = shrink === undefined ? searches.shift() : undefined;
      if (shrink === undefined && search === undefined) {
        if (running === 0) return;
        // Another thread's search may yet give shrinks to make.
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      running += 1;
      try {
        if (shrink !== undefined) {
          const result = await thread({ kind: 'shrink', row: options.rows[shrink.index]!.row, task: shrink.task });
          if (result.kind !== 'shrunk') throw new Error('assertion: a shrink answered with a search');
          shrunk[shrink.index]![shrink.position] = result.shrunk;
          charged[shrink.index]![shrink.position] = result.attribution;
          cut[shrink.index]![shrink.position] = aborted();
          pending[shrink.index]! -= 1;
          const row = outcome(shrink.index);
          if (row.complete) options.onRow?.(shrink.index, row);
        } else {
          const { index, plan } = search!;
          const result = await thread({ kind: 'search', plan });
          if (result.kind !== 'searched') throw new Error('assertion: a search answered with a shrink');
          searched[index] = result.search;
          for (const [position, cell] of result.search.cells.entries()) {
            if (cell.candidate === null) continue;
            pending[index]! += 1;
            shrinks.push({ index, position, task: cellShrinkTask(plan, cell.candidate) });
          }
          const row = outcome(index);
          if (row.complete) options.onRow?.(index, row);
        }
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        running -= 1;
        wake();
      }
    }
  };
  try {
    await Promise.all(options.threads.map(loop));
  } finally {
    options.signal?.removeEventListener('abort', wake);
  }
  return options.rows.map((_, index) => outcome(index));
}

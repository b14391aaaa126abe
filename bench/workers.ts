// Figure 8: what a second thread buys a user's time-budgeted job (the nightly kind): `resumecheck fuzz --target T
// --time S --no-corpus --json`, a whole process of the compiled CLI each, with `--workers 1` and `--workers 2`, counting
// the runs the search made within the budget, so everything a user waits for is in it: the process start, module
// loading, each thread's JIT warm-up, the coordination, shrinking's share of the budget (once something is found
// the search stops at 60 % of it, both ways alike). Beside it, in the same round, two baselines that say what the
// machine gives a second thread right now: the same job as two processes sharing the seed (`--shard 1/2` and
// `--shard 2/2`, one thread each, at once: what a user could do instead), and a busy loop in 1 and 2 threads.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, nowMs } from './measure.ts';

/** The checkout: bench/precompiled.mjs runs the compiled bench from elsewhere and says where it is. */
const ROOT = process.env['RESUMECHECK_ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));

/** GNU time, which reports a child's CPU time (Node's child_process does not). */
const GNU_TIME = '/usr/bin/time';

/** One process's share of a job. */
interface JobProcess {
  readonly runs: number;
  readonly wallMs: number;
  /** User + system CPU of the process, all its threads; null without /usr/bin/time. */
  readonly cpuMs: number | null;
}

/** One way of making the job, in one round. */
export interface JobSample {
  /** Runs the search made within the budget (summed over the processes). */
  readonly runs: number;
  /** Wall time of the whole job (the longest process). */
  readonly wallMs: number;
  readonly cpuMs: number | null;
}

/** One target's figure. */
export interface WorkersResult {
  readonly target: string;
  readonly timeMs: number;
  readonly rounds: number;
  readonly one: readonly JobSample[];
  readonly two: readonly JobSample[];
  readonly shards: readonly JobSample[];
  /** Busy-loop work in 2 threads over 1, measured in each round before the jobs. */
  readonly ceilings: readonly number[];
  /** Medians over the rounds: runs with 2 threads over 1, and with 2 processes over 1. */
  readonly ratio: number;
  readonly shardsRatio: number;
  readonly ceiling: number;
  /** Median runs within the budget, each way. */
  readonly runsOne: number;
  readonly runsTwo: number;
  readonly runsShards: number;
}

/** Runs one fuzz process of the compiled CLI; resolves with its runs, wall and CPU time. */
function runProcess(target: string, timeMs: number, extra: readonly string[]): Promise<JobProcess> {
  const out = mkdtempSync(join(tmpdir(), 'resumecheck-bench-workers-'));
  const cpuFile = join(out, 'cpu.txt');
  const args = [join(ROOT, 'bin', 'resumecheck.mjs'), 'fuzz', '--target', target, '--time', `${timeMs / 1000}s`, '--no-corpus', '--out', join(out, 'found'), '--json', ...extra];
  const timing = existsSync(GNU_TIME);
  const started = nowMs();
  const child = timing ? spawn(GNU_TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }) : spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The budget bounds the job; a child that outlives it by far is killed, and the figure says it broke.
  const killer = setTimeout(() => child.kill('SIGKILL'), timeMs + 60_000);
  return new Promise<JobProcess>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      const wallMs = nowMs() - started;
      try {
        const document = JSON.parse(Buffer.concat(chunks).toString('utf8').trim().split('\n').at(-1) ?? '{}') as { runs?: unknown };
        if (typeof document.runs !== 'number') throw new Error(`bench workers: fuzz --target ${target} ${extra.join(' ')} printed no runs`);
        let cpuMs: number | null = null;
        if (timing && existsSync(cpuFile)) {
          const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
          if (Number.isFinite(user) && Number.isFinite(system)) cpuMs = (user! + system!) * 1000;
        }
        resolve({ runs: document.runs, wallMs, cpuMs });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}

/** Several processes at once, as one job. */
async function runJob(target: string, timeMs: number, processes: readonly (readonly string[])[]): Promise<JobSample> {
  const parts = await Promise.all(processes.map((extra) => runProcess(target, timeMs, extra)));
  const cpus = parts.map((part) => part.cpuMs);
  return {
    runs: parts.reduce((sum, part) => sum + part.runs, 0),
    wallMs: Math.max(...parts.map((part) => part.wallMs)),
    cpuMs: cpus.some((cpu) => cpu === null) ? null : cpus.reduce((sum: number, cpu) => sum + cpu!, 0),
  };
}

/**
 * Alternates, `rounds` times, the ceiling and the three ways of making the job (the order reversed every other
 * round, so a drift of load elsewhere hits every way alike). Needs dist/ built (`npm run bench` builds first).
 */
export async function measureWorkers(target: string, options: { timeMs: number; rounds: number; ceilingMs: number }): Promise<WorkersResult> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'run.js'))) throw new Error('dist/ is not built: run `npm run build` (npm run bench does)');
  const ways = {
    one: [['--workers', '1']],
    two: [['--workers', '2']],
    shards: [
      ['--workers', '1', '--shard', '1/2'],
      ['--workers', '1', '--shard', '2/2'],
    ],
  } as const;
  const samples: Record<keyof typeof ways, JobSample[]> = { one: [], two: [], shards: [] };
  const ceilings: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    ceilings.push((await measureThreadCeiling({ windowMs: options.ceilingMs })).ratio);
    const order = (Object.keys(ways) as (keyof typeof ways)[]).slice();
    if (round % 2 === 1) order.reverse();
    for (const way of order) samples[way].push(await runJob(target, options.timeMs, ways[way]));
  }
  const runsOf = (list: readonly JobSample[]): number => median(list.map((sample) => sample.runs));
  const ratios = (list: readonly JobSample[]): number => median(list.map((sample, round) => sample.runs / samples.one[round]!.runs));
  return {
    target,
    timeMs: options.timeMs,
    rounds: options.rounds,
    ...samples,
    ceilings,
    // Per round, then the median: a round's ways ran minutes apart at the most, under a similar load.
    ratio: samples.one.length === 0 ? Number.NaN : ratios(samples.two),
    shardsRatio: samples.one.length === 0 ? Number.NaN : ratios(samples.shards),
    ceiling: median(ceilings),
    runsOne: runsOf(samples.one),
    runsTwo: runsOf(samples.two),
    runsShards: runsOf(samples.shards),
  };
}

/** What the machine gives a second thread right now: a busy loop's work with 2 threads over 1, same window. */
export interface ThreadCeiling {
  readonly one: number;
  readonly two: number;
  readonly ratio: number;
}

/**
 * The ceiling of the figure above, measured beside it: a pure integer loop in 1 and then 2 worker threads for
 * `windowMs` each (no allocation, no messages). On an idle 2-core machine it is about 2×; when other processes
 * keep the cores busy (the kernel shares CPU between sessions, not threads), a second thread gets nothing.
 */
export async function measureThreadCeiling(options: { windowMs: number }): Promise<ThreadCeiling> {
  const { Worker } = await import('node:worker_threads');
  const code = `const { parentPort, workerData } = require('node:worker_threads');
let x = 0; let n = 0; const started = performance.now();
while (performance.now() - started < workerData) { for (let i = 0; i < 100000; i += 1) x = (x * 31 + i) | 0; n += 1; }
parentPort.postMessage(n + (x & 0));`;
  const spin = async (count: number): Promise<number> => {
    const counts = await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<number>((resolve, reject) => {
            const worker = new Worker(code, { eval: true, workerData: options.windowMs });
            worker.on('message', (loops: number) => {
              resolve(loops);
              void worker.terminate();
            });
            worker.on('error', reject);
          }),
      ),
    );
    return counts.reduce((sum, loops) => sum + loops, 0);
  };
  const one = await spin(1);
  const two = await spin(2);
  return { one, two, ratio: two / one };
}

// Figure 6: check-store on a correct Redis Streams store (check-store/fixtures/redis-streams-store.ts, --durable) on a
// redis-server this bench starts on 127.0.0.1: the time of a 2000-run check, the Redis round trips per second it
// reached (commands the server processed, from INFO stats, over the check's time), and the peak RSS of this process
// after a 200-run check and after the 2000-run one (flat memory: the second is not much above the first). Each check
// runs as the CLI runs it: in a worker thread (contained-check.ts), replaced by a fresh one only on evidence (its heap
// past RECYCLE_DEFAULTS.heapBytes, or more than RECYCLE_DEFAULTS.handles handles left open) or after
// RECYCLE_DEFAULTS.runs runs at the latest (targets/module/wear.ts); the figure counts the worker threads each check took. So the figure is the
// CLI's memory, worker threads included (maxRSS is the whole process's). The baseline is the same check,
// same runs and seed, of the in-memory counter store (check-store/fixtures/counter-store.ts): the same checker with no
// I/O, so the ratio is what Redis round trips cost.

import { connect } from 'node:net';
import { resourceUsage } from 'node:process';
import type { StoreCheckResult } from '../check-store/check-event-store.ts';
import { startContainedCheck } from '../check-store/contained-check.ts';
import { RECYCLE_DEFAULTS } from '../targets/module/wear.ts';
import { redisServerAvailable, startRedisServer } from '../test/redis-server.ts';
import { nowMs } from './measure.ts';

/** The figure; `skipped` says why it could not be measured. */
export interface CheckStoreRedisFigure {
  readonly skipped: string | null;
  readonly runs: number;
  readonly redisMs: number;
  readonly holds: boolean;
  readonly commands: number;
  readonly roundTripsPerSecond: number;
  readonly baselineMs: number;
  /** Peak RSS of the process in MiB after the short check and after the long one. */
  readonly peakRssAfterShortMib: number;
  readonly peakRssAfterLongMib: number;
  readonly shortRuns: number;
  /** Runs a worker makes at the most before a fresh one goes on, whatever the evidence. */
  readonly recycleRuns: number;
  /** Heap bytes in use and handles left open past which a fresh worker goes on (the evidence). */
  readonly recycleHeapBytes: number;
  readonly recycleHandles: number;
  /** Worker threads the short check, the long Redis check and the in-memory baseline took (1: never recycled). */
  readonly workersShort: number;
  readonly workersLong: number;
  readonly workersBaseline: number;
}

/** The check as the CLI makes it: in a recycled worker thread. */
async function containedCheck(path: string, options: { readonly runs: number; readonly seed: string }): Promise<{ result: StoreCheckResult; workers: number }> {
  const outcome = await startContainedCheck({ path, exportName: null }, { runs: options.runs, seed: options.seed, durable: true }, () => {}).outcome;
  if (outcome.kind !== 'done') throw new Error(`check-store bench: the check of ${path} did not end (${outcome.kind}${outcome.kind === 'contained' ? `: ${outcome.verdict}` : ''})`);
  return { result: outcome.result, workers: outcome.workers };
}

function commandsProcessed(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let text = '';
    socket.once('connect', () => socket.write('INFO stats\r\n'));
    socket.on('data', (data) => {
      text += data.toString();
      const match = /total_commands_processed:(\d+)/.exec(text);
      if (match !== null) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.once('error', reject);
  });
}

function peakRssMib(): number {
  // maxRSS is in KiB and only grows: the peak of the process so far.
  return Math.round(resourceUsage().maxRSS / 1024);
}

/** Measures the figure: `runs` per phase for the long check, a tenth of it for the short one. */
export async function measureCheckStoreRedis(options: { readonly runs: number; readonly seed: string }): Promise<CheckStoreRedisFigure> {
  const shortRuns = Math.max(1, Math.floor(options.runs / 10));
  if (!redisServerAvailable()) {
    return {
      skipped: 'no redis-server on this machine',
      runs: options.runs,
      redisMs: 0,
      holds: false,
      commands: 0,
      roundTripsPerSecond: 0,
      baselineMs: 0,
      peakRssAfterShortMib: 0,
      peakRssAfterLongMib: 0,
      shortRuns,
      recycleRuns: RECYCLE_DEFAULTS.runs,
      recycleHeapBytes: RECYCLE_DEFAULTS.heapBytes,
      recycleHandles: RECYCLE_DEFAULTS.handles,
      workersShort: 0,
      workersLong: 0,
      workersBaseline: 0,
    };
  }
  const server = await startRedisServer();
  const saved = process.env['RESUMECHECK_REDIS_URL'];
  process.env['RESUMECHECK_REDIS_URL'] = server.url;
  try {
    const store = 'check-store/fixtures/redis-streams-store.ts';
    const short = await containedCheck(store, { runs: shortRuns, seed: options.seed });
    const peakRssAfterShortMib = peakRssMib();
    const before = await commandsProcessed(server.port);
    const started = nowMs();
    const { result, workers: workersLong } = await containedCheck(store, { runs: options.runs, seed: options.seed });
    const redisMs = nowMs() - started;
    const commands = (await commandsProcessed(server.port)) - before - 1;
    const peakRssAfterLongMib = peakRssMib();
    const baselineStarted = nowMs();
    const baseline = await containedCheck('check-store/fixtures/counter-store.ts', { runs: options.runs, seed: options.seed });
    const baselineMs = nowMs() - baselineStarted;
    return {
      skipped: null,
      runs: options.runs,
      redisMs,
      holds: result.holds,
      commands,
      roundTripsPerSecond: commands / (redisMs / 1000),
      baselineMs,
      peakRssAfterShortMib,
      peakRssAfterLongMib,
      shortRuns,
      recycleRuns: RECYCLE_DEFAULTS.runs,
      recycleHeapBytes: RECYCLE_DEFAULTS.heapBytes,
      recycleHandles: RECYCLE_DEFAULTS.handles,
      workersShort: short.workers,
      workersLong,
      workersBaseline: baseline.workers,
    };
  } finally {
    if (saved === undefined) delete process.env['RESUMECHECK_REDIS_URL'];
    else process.env['RESUMECHECK_REDIS_URL'] = saved;
    await server.stop();
  }
}

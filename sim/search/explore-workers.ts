// Several threads for the wide depths of the breadth-first search (sim/search/frontier-search.ts): this thread and a pool
// of worker threads share out each depth of PARALLEL_LEVEL_MIN worlds or more, which need nothing shared but the
// depth's paths: each thread walks them from its own copy of the target, in chunks of entries claimed from one
// shared counter. At the last depth (at depth 8 on the reference nine in ten of the steps) a chunk's worlds' actions
// are taken and judged; at a depth before it each action's world is keyed and judged and the outcome recorded, for
// this thread to merge into the one visited set. Chunks are read in chunk order, so the outcome is the one a single
// thread would have reached. This thread takes its chunks one at a time, giving the event loop a turn between two, so
// a signal's handler runs within a chunk; a signal then stops every thread at the entry it is on.

import type { Target } from '../../targets/target.ts';
import { macrotaskTurn } from '../clock.ts';
import { EXPLORE_THREADS_MAX, type SimConfig } from '../config.ts';
import type { FrontierOptions, KeyedChunk, KeyedChunks, LeafBudget, LeafChunks, LeafCounts, LeafLevel, LevelPool, LeafStop, Walker } from './frontier-search.ts';
import { SLEPT, judgeLeaves, keyChildren } from './frontier-search.ts';
import { KeyNames } from './state-key.ts';
import { workerDescriptionOf } from '../../targets/resolve-target.ts';
import { closePoolWorkers, startPoolWorker } from './worker-thread.ts';

/** Marks the workerData of an explore worker, so its module does nothing in any other thread that loads it. */
export const EXPLORE_WORKER_MARK = 'resumecheck-explore-worker';

/** Entries a chunk: at depth 8 on the reference about 25 ms of judging, and a few thousand chunks a level. */
export const CHUNK_ENTRIES = 128;

/** The shared counters of one level's judging, as indices into an Int32Array. */
const NEXT = 0; // the next chunk to claim
const STOP = 1; // the lowest chunk known to stop at a violation (chunks after it need not be judged); -1 after a signal
const TIME = 2; // 1 once a thread met the deadline

/** One level as a worker is sent it: its paths shared, its sleep sets flattened; and what to do with it. */
export interface LevelMessage {
  /** Judge the worlds below its entries (the last depth), or expand and key them (a depth before it). */
  readonly kind: 'judge' | 'key';
  readonly depth: number;
  readonly count: number;
  readonly paths: Uint16Array;
  /** Entry i's sleep set is `sleepValues[sleepStarts[i] .. sleepStarts[i + 1])`; -1 at `sleepStarts[i]` for none. */
  readonly sleepStarts: Int32Array;
  readonly sleepValues: Float64Array;
  readonly size: number;
  readonly chunks: number;
  readonly control: Int32Array;
  /** Steps judged so far by every thread (a BigInt64Array of one). */
  readonly done: BigInt64Array;
  readonly runsLeft: number;
  readonly deadline: number | null;
}

/** What a worker answers. */
export type ExploreWorkerReply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'chunk'; readonly chunk: number; readonly counts: LeafCounts; readonly stop: LeafStop; readonly abandoned: boolean; readonly entries: number }
  | { readonly kind: 'keyed'; readonly chunk: number; readonly keyed: KeyedChunk; readonly abandoned: boolean; readonly entries: number }
  | { readonly kind: 'judged' }
  | { readonly kind: 'failed'; readonly message: string };

/** One chunk's result: its leaves judged, or its children keyed; and its entries whose every step was taken. */
type ChunkResult =
  | { readonly kind: 'chunk'; readonly counts: LeafCounts; readonly stop: LeafStop; readonly abandoned: boolean; readonly entries: number }
  | { readonly kind: 'keyed'; readonly keyed: KeyedChunk; readonly abandoned: boolean; readonly entries: number };

/** What a thread needs to claim and judge chunks of one level: the message's counters, and the level itself. */
type Claims = Pick<LevelMessage, 'kind' | 'size' | 'chunks' | 'control' | 'done' | 'runsLeft' | 'deadline'> & { readonly level: LeafLevel };

/** What keying needs besides the level and the thread's walker: the thread's key cache. */
export interface KeyContext {
  readonly names: KeyNames;
}

/** Claims the next chunk, or -1 when none is left worth judging. */
function claim(claims: Claims): number {
  const { control } = claims;
  if (Atomics.load(control, TIME) !== 0 || Atomics.load(claims.done, 0) >= BigInt(claims.runsLeft)) return -1;
  const chunk = Atomics.add(control, NEXT, 1);
  if (chunk >= claims.chunks || chunk > Atomics.load(control, STOP)) return -1;
  return chunk;
}

/** Lowers the shared stop chunk to `chunk` if it is lower. */
function stopAtChunk(control: Int32Array, chunk: number): void {
  for (let seen = Atomics.load(control, STOP); chunk < seen; seen = Atomics.load(control, STOP)) {
    if (Atomics.compareExchange(control, STOP, seen, chunk) === seen) return;
  }
}

/** Judges (or keys) chunk `chunk` of a level; hands its result to `onChunk`. The same in every thread. */
function judgeChunk(walker: Walker, claims: Claims, context: KeyContext, chunk: number, onChunk: (chunk: number, result: ChunkResult) => void): void {
  let abandoned = false;
  const from = chunk * claims.size;
  const to = Math.min(claims.level.count, from + claims.size);
  // Where the chunk was abandoned (a violation in an earlier chunk, or a signal), if it was.
  let reached = to;
  const stop = (entry: number): boolean => {
    abandoned = chunk > Atomics.load(claims.control, STOP);
    if (abandoned) reached = entry;
    return abandoned;
  };
  if (claims.kind === 'key') {
    const keyed = keyChildren(walker, claims.level, from, to, context.names, claims.deadline, stop);
    if (keyed.stop === 'violation') stopAtChunk(claims.control, chunk);
    if (keyed.stop === 'time') Atomics.store(claims.control, TIME, 1);
    let steps = 0;
    for (const state of keyed.state) if (state !== SLEPT) steps += 1;
    Atomics.add(claims.done, 0, BigInt(steps));
    // A chunk stopped in an entry (a violation, the deadline) covers the entries before it.
    const entries = keyed.stop === 'end' ? keyed.slots.length : keyed.slots.length - 1;
    onChunk(chunk, { kind: 'keyed', keyed, abandoned, entries });
    return;
  }
  const counts: LeafCounts = { runs: 0, slept: 0, leaves: 0 };
  const ended = judgeLeaves(walker, claims.level, from, to, counts, { runsMax: Number.POSITIVE_INFINITY, deadline: claims.deadline }, stop);
  if (ended.kind === 'violation') stopAtChunk(claims.control, chunk);
  if (ended.kind === 'time') Atomics.store(claims.control, TIME, 1);
  Atomics.add(claims.done, 0, BigInt(counts.runs));
  const entries = ended.kind === 'end' ? reached - from : ended.entry - from;
  onChunk(chunk, { kind: 'chunk', counts, stop: ended, abandoned, entries });
}

/** Claims and judges (or keys) chunks until none is left; hands each result to `onChunk`. A worker's loop. */
export function judgeClaimed(walker: Walker, claims: Claims, context: KeyContext, onChunk: (chunk: number, result: ChunkResult) => void): void {
  walker.reset();
  for (let chunk = claim(claims); chunk >= 0; chunk = claim(claims)) judgeChunk(walker, claims, context, chunk, onChunk);
}

/**
 * This thread's loop: as {@link judgeClaimed}, with a turn of the event loop after each chunk, so that a signal's
 * handler runs (it stops every thread through the shared stop chunk) and the workers' replies are read as they come.
 */
async function judgeClaimedHere(walker: Walker, claims: Claims, context: KeyContext, onChunk: (chunk: number, result: ChunkResult) => void): Promise<void> {
  walker.reset();
  for (let chunk = claim(claims); chunk >= 0; chunk = claim(claims)) {
    judgeChunk(walker, claims, context, chunk, onChunk);
    await macrotaskTurn();
  }
}

/** The buffers of a keyed chunk, handed over rather than copied when it crosses threads. */
export function keyedBuffers(keyed: KeyedChunk): ArrayBuffer[] {
  return [keyed.slots, keyed.state, keyed.hash, keyed.check, keyed.property, keyed.sleepStarts, keyed.sleepValues].map((array) => array.buffer as ArrayBuffer);
}

/** The sleep sets of a level flattened for a worker. */
function flattenSleeps(level: LeafLevel): { starts: Int32Array; values: Float64Array } {
  let total = 0;
  for (let entry = 0; entry < level.count; entry += 1) total += level.sleeps[entry]?.length ?? 0;
  const starts = new Int32Array(new SharedArrayBuffer(4 * (level.count + 1)));
  const values = new Float64Array(new SharedArrayBuffer(8 * Math.max(1, total)));
  let at = 0;
  for (let entry = 0; entry < level.count; entry += 1) {
    const sleep = level.sleeps[entry];
    starts[entry] = at;
    if (sleep === null || sleep === undefined) continue;
    for (const value of sleep) values[at++] = value;
  }
  starts[level.count] = at;
  return { starts, values };
}

/** A level as a worker rebuilds it from its message. */
export function levelOf(message: LevelMessage): LeafLevel {
  const sleeps: (number[] | null)[] = new Array(message.count);
  for (let entry = 0; entry < message.count; entry += 1) {
    const from = message.sleepStarts[entry]!;
    const to = message.sleepStarts[entry + 1]!;
    sleeps[entry] = from === to ? null : Array.from(message.sleepValues.subarray(from, to));
  }
  return { depth: message.depth, count: message.count, paths: message.paths, sleeps };
}

/**
 * Starts `options.threads - 1` workers for `target`, or returns null when a worker could not build the very same
 * target again from its description (a target made in a test, say): the search then runs in this thread alone.
 */
export async function levelPool(target: Target, config: SimConfig, options: FrontierOptions): Promise<LevelPool | null> {
  const description = await workerDescriptionOf(target);
  if (description === null) return null;
  const threads = Math.min(Math.max(1, options.threads ?? 1), EXPLORE_THREADS_MAX);
  if (threads < 2) return null;
  const data = { mark: EXPLORE_WORKER_MARK, target: description, config, only: options.only ?? null, independence: options.independence !== false };
  const workers = Array.from({ length: threads - 1 }, () => startPoolWorker<ExploreWorkerReply>('explore-worker', data, 'explore worker'));
  const context: KeyContext = { names: new KeyNames() };
  /** Shares one level out among the threads, this one included; returns each chunk's result by chunk number. */
  const share = async (kind: LevelMessage['kind'], level: LeafLevel, walker: Walker, budget: LeafBudget & { readonly runsLeft: number }) => {
    const size = Math.max(1, options.chunkEntries ?? CHUNK_ENTRIES);
    const chunks = Math.ceil(level.count / size);
    const control = new Int32Array(new SharedArrayBuffer(4 * 3));
    control[STOP] = chunks;
    const done = new BigInt64Array(new SharedArrayBuffer(8));
    const runsLeft = Math.max(0, Math.min(budget.runsLeft, Number.MAX_SAFE_INTEGER));
    const claims: Claims = { kind, level, size, chunks, control, done, runsLeft, deadline: budget.deadline };
    const paths = new Uint16Array(new SharedArrayBuffer(2 * Math.max(1, level.count * level.depth)));
    paths.set(level.paths.subarray(0, level.count * level.depth));
    const { starts, values } = flattenSleeps(level);
    const message: LevelMessage = { kind, depth: level.depth, count: level.count, paths, sleepStarts: starts, sleepValues: values, size, chunks, control, done, runsLeft, deadline: budget.deadline };
    const results: (ChunkResult | undefined)[] = new Array(chunks);
    const finished = workers.map(
      (entry) =>
        new Promise<void>((resolve, reject) => {
          if (entry.dead !== null) {
            reject(entry.dead);
            return;
          }
          entry.failure = reject;
          entry.listener = (reply) => {
            if (reply.kind === 'chunk' || reply.kind === 'keyed') results[reply.chunk] = reply;
            else if (reply.kind === 'judged') resolve();
          };
          entry.worker.postMessage(message);
        }),
    );
    // A signal lowers the stop chunk below every chunk: no thread claims another, each leaves its own at the entry it is
    // on. This thread then waits for no worker (one may still be reading the level's message): the search ends there,
    // and closing the pool stops them.
    let onAbort = (): void => {};
    const abandoned = new Promise<void>((resolve) => {
      onAbort = () => {
        stopAtChunk(control, -1);
        resolve();
      };
    });
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted === true) onAbort();
    try {
      // This thread takes chunks too, while the workers do (a worker still loading starts on the chunks left).
      await judgeClaimedHere(walker, claims, context, (chunk, result) => {
        results[chunk] = result;
      });
      await Promise.race([Promise.all(finished), abandoned]);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    for (const entry of workers) {
      entry.listener = null;
      entry.failure = null;
    }
    let entriesDone = 0;
    for (const result of results) entriesDone += result?.entries ?? 0;
    return { size, results, timeUp: Atomics.load(control, TIME) !== 0, entriesDone };
  };
  return {
    threads,
    async judge(level, walker, budget) {
      const { size, results, timeUp, entriesDone } = await share('judge', level, walker, budget);
      const ordered: { counts: LeafCounts; stop: LeafStop }[] = [];
      for (const result of results) {
        if (result === undefined || result.kind !== 'chunk' || result.abandoned) break;
        ordered.push(result);
        if (result.stop.kind !== 'end') break;
      }
      const total: LeafCounts = { runs: 0, slept: 0, leaves: 0 };
      for (const result of results) {
        if (result === undefined || result.kind !== 'chunk') continue;
        total.runs += result.counts.runs;
        total.slept += result.counts.slept;
        total.leaves += result.counts.leaves;
      }
      const outcome: LeafChunks = { size, chunks: ordered, timeUp, total, entriesDone };
      return outcome;
    },
    async key(level, walker, budget) {
      const { results, timeUp, entriesDone } = await share('key', level, walker, budget);
      const ordered: KeyedChunk[] = [];
      let entries = 0;
      for (const result of results) {
        if (result === undefined || result.kind !== 'keyed' || result.abandoned) break;
        ordered.push(result.keyed);
        // A chunk that stopped early ends what can be read; its entries are not all covered.
        if (result.keyed.stop !== 'end') break;
        entries += result.keyed.slots.length;
      }
      const outcome: KeyedChunks = { chunks: ordered, entries, timeUp, entriesDone };
      return outcome;
    },
    async close() {
      await closePoolWorkers(workers, 'explore worker');
    },
  };
}

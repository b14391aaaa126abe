// What a snapshot costs against what the exhaustive search would pay instead: replaying the prefix. For one fixed
// set of prefixes on `reference`, the time to reach the end of each prefix by replaying it (open the target, boot,
// run the steps: what the replaying search does per sequence) against the time to restore the snapshot taken there
// (sim/search/snapshot.ts, the target's own snapshot included: what the breadth-first search does per step), and to take it.

import type { SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { captureWorld, restoreWorld } from '../sim/search/snapshot.ts';
import type { World } from '../sim/world.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { nowMs } from './measure.ts';

/** Per prefix length: microseconds to replay a prefix, and to copy the world it reaches. */
export interface SnapshotCost {
  readonly depth: number;
  readonly prefixes: number;
  readonly replayUs: number;
  /** A restore of the snapshot taken there (sim/search/snapshot.ts: what the search pays per step instead of a replay). */
  readonly copyUs: number;
  /** Taking that snapshot (once per world the search expands). */
  readonly captureUs: number;
}

const STOP: unique symbol = Symbol('stop');

/** Runs `prefix` and hands the world at its end to `body` (the liveness phase is not run). */
async function atEnd(config: SimConfig, prefix: readonly number[], body: (world: World) => void): Promise<boolean> {
  let next = 0;
  try {
    await runSimulation(referenceTarget, config, {
      choose: (world) => {
        if (next < prefix.length) return prefix[next++]!;
        body(world as World);
        throw STOP;
      },
    });
  } catch (error) {
    if (error !== STOP) throw error;
    return true;
  }
  return false;
}

/** The prefixes measured: `count` of each length, choices spread over what each step enables (fixed, no randomness). */
async function prefixesOf(config: SimConfig, depth: number, count: number): Promise<number[][]> {
  const found: number[][] = [];
  for (let salt = 0; found.length < count && salt < count * 4; salt += 1) {
    const prefix: number[] = [];
    let enabled = 0;
    let next = 0;
    await runSimulation(referenceTarget, config, {
      choose: (_world, list) => {
        if (next >= depth) return null;
        enabled = list.count;
        const choice = (salt * 7 + next * 13) % enabled;
        prefix.push(choice);
        next += 1;
        return choice;
      },
    });
    if (prefix.length === depth) found.push(prefix);
  }
  return found;
}

/** Measures replay against copy for prefixes of each depth. */
export async function measureSnapshotCost(config: SimConfig, depths: readonly number[], rounds: number): Promise<SnapshotCost[]> {
  const costs: SnapshotCost[] = [];
  for (const depth of depths) {
    const prefixes = await prefixesOf(config, depth, 50);
    let replayMs = 0;
    let copyMs = 0;
    let captureMs = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (const prefix of prefixes) {
        const started = nowMs();
        await atEnd(config, prefix, () => undefined);
        replayMs += nowMs() - started;
        await atEnd(config, prefix, (world) => {
          const before = nowMs();
          const snapshot = captureWorld(world);
          const captured = nowMs();
          restoreWorld(world, snapshot);
          copyMs += nowMs() - captured;
          captureMs += captured - before;
        });
      }
    }
    const samples = prefixes.length * rounds;
    costs.push({ depth, prefixes: prefixes.length, replayUs: (replayMs * 1000) / samples, copyUs: (copyMs * 1000) / samples, captureUs: (captureMs * 1000) / samples });
  }
  return costs;
}

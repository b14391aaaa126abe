// What a snapshot of a world would cost against what the exhaustive search pays instead: replaying the prefix.
// For one fixed set of prefixes on `reference`, the time to reach the end of each prefix by replaying it (open the
// target, boot, run the steps: what sim/explore.ts does per sequence) against the time to copy the world reached
// there, the target's objects included, with a generic deep copy that keeps object sharing (what restoring a
// snapshot or a restore does). The search restores from snapshots where the target allows it; this says what that saves per step.

import type { SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import type { World } from '../sim/world.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { nowMs } from './measure.ts';

/** Per prefix length: microseconds to replay a prefix, and to copy the world it reaches. */
export interface SnapshotCost {
  readonly depth: number;
  readonly prefixes: number;
  readonly replayUs: number;
  readonly copyUs: number;
}

const STOP: unique symbol = Symbol('stop');

/** A deep copy that keeps sharing (an object reached twice is copied once) and functions as they are. */
function deepCopy(value: unknown, copies: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    copies.set(value, copy);
    for (let index = 0; index < value.length; index += 1) copy[index] = deepCopy(value[index], copies);
    return copy;
  }
  if (value instanceof Map) {
    const copy = new Map();
    copies.set(value, copy);
    for (const [key, item] of value) copy.set(deepCopy(key, copies), deepCopy(item, copies));
    return copy;
  }
  if (ArrayBuffer.isView(value)) return (value as unknown as { slice(): unknown }).slice();
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  copies.set(value, copy);
  for (const key of Object.keys(value)) copy[key] = deepCopy((value as Record<string, unknown>)[key], copies);
  return copy;
}

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
    for (let round = 0; round < rounds; round += 1) {
      for (const prefix of prefixes) {
        const started = nowMs();
        await atEnd(config, prefix, () => undefined);
        replayMs += nowMs() - started;
        await atEnd(config, prefix, (world) => {
          const before = nowMs();
          deepCopy(world, new Map());
          copyMs += nowMs() - before;
        });
      }
    }
    const samples = prefixes.length * rounds;
    costs.push({ depth, prefixes: prefixes.length, replayUs: (replayMs * 1000) / samples, copyUs: (copyMs * 1000) / samples });
  }
  return costs;
}

// The independence table is complete, and what it calls independent commutes: from worlds a few steps deep, every
// pair of independent actions taken in both orders gives the same verdicts (after both steps and after the liveness
// phase) and the same enabled action kinds, on the reference and on the planted targets whose state can be keyed.

import { describe, expect, it } from 'vitest';
import { MINIMA_CONFIG } from '../../bench/minima.ts';
import { PLANTED_TARGETS } from '../../targets/planted/index.ts';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import type { Target } from '../../targets/target.ts';
import { ACTION_KINDS } from '../config.ts';
import { SteppedRun } from '../engine.ts';
import { INDEPENDENCE, footprintOf, independent, isEntangled } from './independence.ts';
import { reductionUnavailable } from './explore.ts';
import { type WorldSnapshot, captureWorld, restoreWorld } from './snapshot.ts';

type Action = readonly [kind: number, a: number, b: number];

function enabledActions(run: SteppedRun): Action[] {
  const list = run.enabled();
  const out: Action[] = [];
  for (let index = 0; index < list.count; index += 1) out.push([list.kind[index]!, list.a[index]!, list.b[index]!]);
  return out;
}

function stepAction(run: SteppedRun, action: Action): boolean {
  const index = enabledActions(run).findIndex((other) => other[0] === action[0] && other[1] === action[1] && other[2] === action[2]);
  if (index < 0) return false;
  run.step(index);
  return true;
}

function violated(run: SteppedRun): string | null {
  return run.world.violation?.property ?? null;
}

/**
 * What one order leads to, without names: the verdict after both steps, the enabled kinds, the liveness verdict. A
 * violation in either step is the verdict alone: an action's own violation (the other order's first step) is met
 * one step sooner on the path that takes it first, which the search also explores.
 */
function outcome(run: SteppedRun, here: WorldSnapshot, first: Action, second: Action): string {
  restoreWorld(run.world, here);
  if (!stepAction(run, first)) return 'first not enabled';
  if (violated(run) !== null) return `violated ${violated(run)}`;
  if (!stepAction(run, second)) return 'second not enabled';
  if (violated(run) !== null) return `violated ${violated(run)}`;
  const kinds = enabledActions(run)
    .map((action) => ACTION_KINDS[action[0]])
    .sort()
    .join(',');
  return `holds | ${kinds} | ${run.finish()?.property ?? 'holds'}`;
}

/** Checks every independent pair at every world up to `depth` steps deep; returns the pairs checked. */
async function checkCommuting(target: Target, depth: number): Promise<number> {
  const run = (await SteppedRun.open(target, MINIMA_CONFIG))!;
  let pairs = 0;
  try {
    const visit = (here: WorldSnapshot, level: number): void => {
      restoreWorld(run.world, here);
      if (run.world.violation !== null) return;
      const actions = enabledActions(run);
      const footprints = actions.map(([kind, a]) => footprintOf(run.world, kind, a));
      if (!isEntangled(run.world)) {
        for (let left = 0; left < actions.length; left += 1) {
          for (let right = left + 1; right < actions.length; right += 1) {
            if (!independent(footprints[left]!, footprints[right]!)) continue;
            pairs += 1;
            const forward = outcome(run, here, actions[left]!, actions[right]!);
            const backward = outcome(run, here, actions[right]!, actions[left]!);
            expect(backward, `${target.name}: ${ACTION_KINDS[actions[left]![0]]} and ${ACTION_KINDS[actions[right]![0]]} at depth ${level}`).toBe(forward);
          }
        }
      }
      if (level === depth) return;
      for (const action of actions) {
        restoreWorld(run.world, here);
        stepAction(run, action);
        if (run.world.violation === null) visit(captureWorld(run.world), level + 1);
      }
    };
    visit(captureWorld(run.world), 0);
  } finally {
    await run.close();
  }
  return pairs;
}

describe('independence of actions (sleep sets)', () => {
  it('names a footprint, with its reason, for every action kind', () => {
    for (const kind of ACTION_KINDS) {
      expect(INDEPENDENCE[kind], kind).toBeDefined();
      expect(INDEPENDENCE[kind].why.length, kind).toBeGreaterThan(10);
    }
    expect(Object.keys(INDEPENDENCE).sort()).toEqual([...ACTION_KINDS].sort());
  });

  it('never calls an action independent of one that touches every client', () => {
    expect(independent(-1, 1)).toBe(false);
    expect(independent(1, 2)).toBe(true);
    expect(independent(3, 2)).toBe(false);
  });

  it('the reference: independent actions commute from every world up to 3 steps deep', async () => {
    expect(await checkCommuting(referenceTarget, 3)).toBeGreaterThan(1000);
  });

  // Three steps deep for the targets whose bugs cross sessions (a foreign cursor honoured), two for the others.
  const CROSSING = new Set(['resume-if-known', 'no-owner-check']);
  it('the planted targets that can be keyed: independent actions commute from every world up to 2 or 3 steps deep', async () => {
    for (const target of PLANTED_TARGETS) {
      if ((await reductionUnavailable(target, MINIMA_CONFIG)) !== null) continue;
      expect(await checkCommuting(target, CROSSING.has(target.name) ? 3 : 2), target.name).toBeGreaterThan(0);
    }
  });
});

// A restored snapshot is the world it was taken of: the same key, the same fields on every object it reaches (the
// restore writes contents back and cannot delete a field added later), and the same run from there on.

import { describe, expect, it } from 'vitest';
import { MINIMA_CONFIG } from '../../bench/minima.ts';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import { SteppedRun } from '../engine.ts';
import { createPrng } from '../prng.ts';
import { captureWorld, restoreWorld } from './snapshot.ts';
import { worldKeyText } from './state-key.ts';
import type { World } from '../world.ts';

/** Every object the world reaches, with the number of its own fields (messages and the fixed fields left out). */
function shapes(world: World): Map<object, number> {
  const found = new Map<object, number>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || found.has(value)) return;
    if ((value as { jsonrpc?: unknown }).jsonrpc === '2.0') return;
    found.set(value, Array.isArray(value) ? -1 : Object.keys(value).length);
    if (value instanceof Map) for (const [key, item] of value) (visit(key), visit(item));
    else if (value instanceof Set) for (const item of value) visit(item);
    else for (const item of Object.values(value)) visit(item);
  };
  for (const [field, value] of Object.entries(world)) if (!['config', 'run', 'checked', 'server', 'serverRandom', 'notes'].includes(field)) visit(value);
  return found;
}

describe('world snapshots', () => {
  it('seed 7: after random steps and a liveness phase, a restore gives back the same key, the same object shapes and the same future', async () => {
    const run = (await SteppedRun.open(referenceTarget, MINIMA_CONFIG))!;
    const random = createPrng('7');
    try {
      for (let round = 0; round < 20; round += 1) {
        for (let step = 0; step < 3; step += 1) {
          const count = run.enabled().count;
          if (count > 0) run.step(Math.floor(random.float() * count));
        }
        if (run.world.violation !== null) break;
        const snapshot = captureWorld(run.world);
        const key = worldKeyText(run.world);
        const before = shapes(run.world);
        const futureOf = (): string => {
          const choices: string[] = [];
          for (let step = 0; step < 4; step += 1) {
            const count = run.enabled().count;
            if (count === 0) break;
            run.step(count - 1);
            choices.push(String(count));
          }
          return `${choices.join(',')} ${run.finish()?.property ?? 'holds'}`;
        };
        const first = futureOf();
        restoreWorld(run.world, snapshot);
        expect(worldKeyText(run.world)).toBe(key);
        for (const [object, fields] of shapes(run.world)) if (before.has(object)) expect(fields).toBe(before.get(object));
        expect(futureOf()).toBe(first);
        restoreWorld(run.world, snapshot);
      }
    } finally {
      await run.close();
    }
  });
});

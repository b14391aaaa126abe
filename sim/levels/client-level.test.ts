// The client level on the real SDK clients: runs are pure functions of (target, config, choices); each planted
// client is caught by the client property it breaks and shrunk to its known minimum; the real clients hold the
// properties they keep; and the simulated clock is always restored.

import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.ts';
import { planWalk, sequenceChoices, walkChoices } from '../choices.ts';
import { runSimulation } from '../engine.ts';
import { fuzz, recordTrace } from '../search/fuzz.ts';
import { serializeTrace } from '../../traces/trace.ts';
import { clientSdkDropsTokenTarget, clientSdkStormTarget, clientSdkTarget } from '../../targets/clients/client-sdk.target.ts';
import { clientSdk2DropsTokenTarget, clientSdk2StormTarget, clientSdk2Target } from '../../targets/clients/client-sdk2.target.ts';
import type { Target } from '../../targets/target.ts';
import { levelOf } from './level.ts';

const BOUNDS = { fastCheckEvaluationsMax: 300, passEvaluationsMax: 300 };

describe('the client level', () => {
  it('records byte-identical traces for the same seed and choices (client-sdk, seed c.7)', async () => {
    const config = resolveConfig({ seed: 'c.7' });
    const walked = await runSimulation(clientSdkTarget, config, walkChoices(planWalk(config.seed, config.stepsMax, levelOf(clientSdkTarget)!.faultKinds)));
    const first = serializeTrace(await recordTrace(clientSdkTarget, config, walked.choices, null));
    const second = serializeTrace(await recordTrace(clientSdkTarget, config, walked.choices, null));
    expect(walked.steps).toBeGreaterThan(0);
    expect(second).toBe(first);
  });

  it('restores the real timers after every run, also when a choice sequence is replayed', async () => {
    const saved = { setTimeout: globalThis.setTimeout, now: Date.now };
    await runSimulation(clientSdk2Target, resolveConfig({ seed: 'c.r' }), sequenceChoices([5, 3, 8, 1, 0, 2]));
    expect(globalThis.setTimeout).toBe(saved.setTimeout);
    expect(Date.now).toBe(saved.now);
  });

  const planted: ReadonlyArray<readonly [Target, number]> = [
    // A GET stream gets its priming event and is cut: the reconnect goes out without Last-Event-ID (3 fault steps).
    [clientSdkDropsTokenTarget, 3],
    [clientSdk2DropsTokenTarget, 3],
    // The GET stream gets its priming event, the server restarts: the client retries the dead session forever.
    [clientSdkStormTarget, 3],
    [clientSdk2StormTarget, 3],
  ];
  for (const [target, minimum] of planted) {
    it(`catches ${target.name} by ${target.breaks.join(', ')} and shrinks it to ${minimum} fault steps (seed p)`, async () => {
      const outcome = await fuzz({ target, config: resolveConfig({ seed: 'p' }), runsMax: 60, timeMs: null, properties: target.breaks, shrinkBounds: BOUNDS });
      expect(outcome.finding?.trace.verdict?.property).toBe(target.breaks[0]);
      expect(outcome.finding!.trace.choices.length).toBe(minimum);
    });
  }

  for (const target of [clientSdkTarget, clientSdk2Target]) {
    it(`finds no storm and no hang in ${target.name}: it gives up after its retries and times out what it lost (seed h, 40 runs)`, async () => {
      const outcome = await fuzz({ target, config: resolveConfig({ seed: 'h' }), runsMax: 40, timeMs: null, properties: ['client-reconnects-bounded', 'client-requests-settle'] });
      expect(outcome.finding?.trace.verdict ?? null).toBeNull();
      expect(outcome.steps).toBeGreaterThan(400);
    });
  }
});

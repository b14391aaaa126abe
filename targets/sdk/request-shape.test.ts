// The harness gives a request an abort signal of its own (aborted when the client drops the connection) and its body
// as bytes only on a server with a modern endpoint, the one part of the SDK that reads the signal (and, with the SDK's
// era check, reads the body itself): elsewhere the transport is handed the body parsed, as the SDK's Express examples
// do (targets/sdk/sdk-server.ts, SdkServer.handle). The whole request costs time and changes nothing: the same walks
// give byte-identical traces either way, as the harness sent them before and lean, on both SDK lines.

import { describe, expect, it } from 'vitest';
import { planWalk, walkChoices } from '../../sim/choices.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { recordTrace } from '../../sim/search/fuzz.ts';
import { serializeTrace } from '../../traces/trace.ts';
import { REPOSITORY_ROUTER } from '../sdk2/example-routing.ts';
import { SDK_2_LINE } from '../sdk2/sdk2-line.ts';
import { repositorySharedStores } from '../sdk2/sdk2-shared.target.ts';
import type { Target } from '../target.ts';
import { type SdkTargetSpec, createSdkTarget } from './sdk-server.ts';
import { sharedExampleStores } from './sdk-shared.target.ts';

const SPECS: readonly SdkTargetSpec[] = [
  { name: 'requests-1.x', description: 'the 1.x transport, a shared example store', createStores: sharedExampleStores },
  { name: 'requests-2.x', description: 'the 2.x transport, a shared example store', line: SDK_2_LINE, routing: REPOSITORY_ROUTER, createStores: repositorySharedStores },
];

const SEEDS = Array.from({ length: 24 }, (_, index) => `signal${index + 1}`);

describe('a request signal and a body as bytes only where the SDK reads them: the same runs as whole requests', () => {
  for (const spec of SPECS) {
    it(`${spec.name}: ${SEEDS.length} walks record the same traces either way, cuts and restarts among them`, async () => {
      const without: Target = createSdkTarget(spec);
      const every: Target = createSdkTarget({ ...spec, requests: 'whole' });
      const kinds = new Set<string>();
      for (const seed of SEEDS) {
        const config = resolveConfig({ seed, stepsMax: 30 });
        const walked = await runSimulation(every, config, walkChoices(planWalk(seed, config.stepsMax)));
        const trace = await recordTrace(every, config, walked.choices, null);
        for (const step of trace.steps) kinds.add((step.action as { kind: string }).kind);
        expect(serializeTrace(await recordTrace(without, config, walked.choices, null)), seed).toBe(serializeTrace(trace));
      }
      // The walks must drop connections for the equality to say anything about the signal (and make calls, which every
      // walk of 30 steps does, for the body).
      expect(kinds).toContain('cut');
      expect(kinds).toContain('restart');
    });
  }
});

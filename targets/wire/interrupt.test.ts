// A stop over the wire cuts the run under way off at once: a run there takes seconds, and a response head may be
// awaited for up to the head bound. The served JSON test server holds every request of run r1 open; once it holds one,
// the stop comes, and the run ends with WireInterrupted, not with the head bound's WireFault after 5 s.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planWalk, walkChoices } from '../../sim/choices.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { macrotaskTurn } from '../../sim/clock.ts';
import { WireInterrupted } from './wire-error.ts';
import { createWireTarget } from './wire.target.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-interrupt-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a stop during a run over the wire', () => {
  it('ends the run at the request it was waiting on, with WireInterrupted', async () => {
    const held = join(scratch, 'held');
    const wire = await createWireTarget({ url: null, serve: `HANG_FILE=${held} exec node cli/fixtures/json-server.mjs --sessions --hang-run r1`, allowRemote: false });
    const controller = new AbortController();
    wire.interruptOn(controller.signal);
    try {
      const config = resolveConfig({ seed: '1', restartsMax: 0 });
      const run = runSimulation(wire, config, walkChoices(planWalk(config.seed, config.stepsMax, undefined)), {});
      const outcome = run.then(
        () => null,
        (error: unknown) => error,
      );
      // The server holds the run's first request: the state the stop must cut short.
      while (!existsSync(held)) await macrotaskTurn();
      controller.abort();
      const error = await outcome;
      expect(error).toBeInstanceOf(WireInterrupted);
    } finally {
      await wire.stop();
    }
  });
});

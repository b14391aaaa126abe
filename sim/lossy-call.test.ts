// The lossy call (callLossy): offered only on a run whose tools answer inside their request (a server's own echo tool
// over the wire), where no cut or lost tail can come between a call's first event and its result. The client keeps
// the response's first event, the network loses what follows and breaks the connection; the client resumes from that
// event. In process it is offered on a target that says so: the reference, which resumes correctly, holds.

import { describe, expect, it } from 'vitest';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import type { Target } from '../targets/target.ts';
import { type ActionList, K, describeAction } from './actions.ts';
import { planWalk, walkChoices } from './choices.ts';
import { resolveConfig } from './config.ts';
import { type ChoiceSource, type ChoiceWorld, runSimulation } from './engine.ts';
import { traceLines } from './levels/vocabulary.ts';
import { runSeed } from './search/fuzz.ts';
import { scriptChoices } from './shrink/script.ts';
import type { World } from './world.ts';

/** The reference, its runs saying that its tools answer inside their request. */
const answeringWithin: Target = {
  ...referenceTarget,
  name: 'reference-answering-within',
  open: async (options) => ({ ...(await referenceTarget.open(options)), answersWithinRequest: true }),
};

const LOSSY = 'client 1 calls work; the network loses its response after the first event, then breaks it';

/** The descriptions of the actions enabled once the script is done, and the run. */
async function scripted(target: Target, script: readonly string[]) {
  let enabled: string[] = [];
  const steps = scriptChoices(script);
  const source: ChoiceSource = {
    choose(world: ChoiceWorld, list: ActionList) {
      const choice = steps.choose(world, list);
      if (choice === null) enabled = Array.from({ length: list.count }, (_, index) => describeAction(world as World, list.kind[index]!, list.a[index]!, list.b[index]!));
      return choice;
    },
  };
  const result = await runSimulation(target, resolveConfig({ seed: 'lossy', clients: 1 }), source, { record: true });
  return { enabled, result };
}

describe('the lossy call', () => {
  it('is offered only where the tools answer inside their request', async () => {
    expect((await scripted(referenceTarget, ['client 1 initializes'])).enabled.filter((action) => action.includes('loses its response'))).toEqual([]);
    const { enabled } = await scripted(answeringWithin, ['client 1 initializes']);
    expect(enabled).toContain(LOSSY);
  });

  it('keeps the first event, loses the next and breaks the connection; the client resumes from the event it kept', async () => {
    const { result } = await scripted(answeringWithin, ['client 1 initializes', LOSSY, 'the server advances c1', 'the server advances c1']);
    expect(result.violation).toBeNull();
    const lines = traceLines(result.trace);
    expect(lines[1]!.action).toBe(LOSSY);
    expect(lines[1]!.notes.join('\n')).toMatch(/← #2 id \S+/);
    const lost = lines[2]!.notes.join('\n');
    expect(lost).toMatch(/✗ #2 lost: id \S+ progress #1 of c1/);
    expect(lost).toMatch(/✗ #2 breaks \(the client sees a cut\)/);
    // The liveness phase resumes the stream with the priming event's ID: the progress lost comes again, then the result.
    expect(lines.slice(4).map((line) => line.action)).toContain('client 1 resumes the stream of c1 with its latest cursor');
  });

  it('the reference holds under random walks that take it (seed 1, 300 runs)', async () => {
    const config = resolveConfig({ seed: '1' });
    let lossy = 0;
    for (let run = 1; run <= 300; run += 1) {
      const seed = runSeed(config.seed, run);
      const walk = walkChoices(planWalk(seed, config.stepsMax));
      const counted: ChoiceSource = {
        choose(world, list) {
          const choice = walk.choose(world, list);
          if (choice !== null && list.kind[choice] === K.callLossy) lossy += 1;
          return choice;
        },
      };
      const result = await runSimulation(answeringWithin, { ...config, seed }, counted);
      expect(result.violation, seed).toBeNull();
    }
    expect(lossy).toBeGreaterThan(50);
  });
});

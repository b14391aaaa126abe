import fc from 'fast-check';
import { commandArbitraries, createFcWorld, healAndFinish } from './fc-commands.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
const config = { clients: 2, callsPerSessionMax: 3, restartsMax: 2, workProgressSteps: 2, windowEventsMax: 2 };
const p = fc.property(fc.commands(commandArbitraries(config), { size: 'medium' }), (seq) => {
  const world = createFcWorld(referenceTarget, config);
  fc.modelRun(() => ({ model: { world }, real: {} }), seq);
  healAndFinish(world);
});
const d = fc.check(p, { seed: 1, numRuns: 3000 });
console.log(d.failed, String(d.counterexample?.[0]), d.errorInstance);

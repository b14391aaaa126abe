// A finding that a client's own fault (a request ID reused while in flight) can itself produce is charged to the
// client: reported as triggered by that step, failing nothing; the shrinker first looks for a counterexample without
// that step, and a finding charged to the server never shrinks into a triggered one.

import { describe, expect, it } from 'vitest';
import { findingFails } from '../properties/finding-weight.ts';
import { findTarget } from '../targets/index.ts';
import type { Target } from '../targets/target.ts';
import { sequenceChoices } from './choices.ts';
import { resolveConfig } from './config.ts';
import { runSimulation } from './engine.ts';
import { scriptChoices } from './shrink/script.ts';
import { shrinkChoices } from './shrink/shrink.ts';

const SEED = 'fixed';
const CONFIG = resolveConfig({ seed: SEED });

function builtIn(name: string): Target {
  const target = findTarget(name);
  if (target === undefined) throw new Error(`no built-in target ${name}`);
  return target;
}

/** The planted cross-stream replay's counterexample, with an in-flight re-send of c1 put in before the bug shows. */
const WITH_REUSE = [
  'client 1 initializes',
  'client 1 calls read',
  'a proxy re-sends c1 (read, request 2) of client 1 while it is in flight',
  'client 1 calls read',
  'the server advances c1',
  'the network cuts connection #4',
  'client 1 resumes the stream of c2 with its latest cursor',
];

describe(`charged to the party that broke it (seed ${SEED})`, () => {
  it('an in-flight re-send makes what follows it triggered: the verdict names the step, and it fails nothing', async () => {
    const result = await runSimulation(builtIn('cross-stream-replay'), CONFIG, scriptChoices(WITH_REUSE));
    expect(result.violation?.property).toBe('no-cross-stream-replay');
    expect(result.violation?.triggeredBy).toMatchObject({ step: 2, modern: false });
    expect(findingFails(result.violation!, 'advice')).toBe(false);
  });

  it('a property the server is charged with stays charged after the same step (reused-request-id-refused on sdk-core)', async () => {
    const script = ['client 1 initializes', 'client 1 calls read', 'client 1 reuses request 2 of c1, still in flight, for a call of append'];
    const result = await runSimulation(builtIn('sdk-core'), resolveConfig({ seed: '1' }), scriptChoices(script));
    expect(result.violation?.property).toBe('reused-request-id-refused');
    expect(result.violation?.triggeredBy).toBeUndefined();
    expect(findingFails(result.violation!, 'advice')).toBe(true);
  });

  it('the shrinker drops the client fault: the shrunk counterexample is the same property, charged to the server', async () => {
    const target = builtIn('cross-stream-replay');
    const original = await runSimulation(target, CONFIG, scriptChoices(WITH_REUSE));
    const shrunk = await shrinkChoices(target, CONFIG, original.choices, 'no-cross-stream-replay');
    const replayed = await runSimulation(target, CONFIG, sequenceChoices(shrunk.choices));
    expect(replayed.violation?.property).toBe('no-cross-stream-replay');
    expect(replayed.violation?.triggeredBy).toBeUndefined();
    expect(shrunk.choices.length).toBeLessThan(original.choices.length);
  });

  it('a charged counterexample is never shrunk into a triggered one', async () => {
    const target = builtIn('cross-stream-replay');
    const script = WITH_REUSE.filter((line) => !line.startsWith('a proxy')).map((line) => line.replace('#4', '#3'));
    const original = await runSimulation(target, CONFIG, scriptChoices(script));
    expect(original.violation?.triggeredBy).toBeUndefined();
    const shrunk = await shrinkChoices(target, CONFIG, original.choices, 'no-cross-stream-replay');
    const replayed = await runSimulation(target, CONFIG, sequenceChoices(shrunk.choices));
    expect(replayed.violation?.property).toBe('no-cross-stream-replay');
    expect(replayed.violation?.triggeredBy).toBeUndefined();
  });
});

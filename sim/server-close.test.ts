// The "server closes the connection" action does only what the target does: a connection the target cannot close
// (the SDK, for a request it has completed) stays open in the model too, so a hang behind it is still seen.

import { traceLines } from './levels/vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.ts';
import { runSimulation } from './engine.ts';
import { scriptChoices } from './shrink/script.ts';
import { findTarget } from '../targets/index.ts';
import type { Target } from '../targets/target.ts';

const SEED = 'close';

function target(name: string): Target {
  const found = findTarget(name);
  if (found === undefined) throw new Error(`no target ${name}`);
  return found;
}

/** A completed request's resumed stream that the SDK never ends; then the server is asked to close it. */
const SCRIPT = [
  'client 1 initializes',
  'client 1 calls read',
  'the network cuts connection #2',
  'the server advances c1',
  'client 1 resumes the stream of c1 with its latest cursor',
  'the server closes connection #3',
];

describe(`serverClose follows the target (seed ${SEED})`, () => {
  it('sdk-core cannot close a completed request\'s connection: the step is a no-op and the hang behind it is reported', async () => {
    const result = await runSimulation(target('sdk-core'), resolveConfig({ seed: SEED }), scriptChoices(SCRIPT), { record: true });
    const close = traceLines(result.trace).find((step) => step.action.startsWith('the server closes connection #3'))!;
    expect(close.notes).toContain('  (the server did not close #3: it stays open)');
    expect(result.violation?.property).toBe('no-hang');
  });

  it('a kit server closes an open call stream: the connection is closed (not ended) and the client resumes it', async () => {
    const script = ['client 1 initializes', 'client 1 calls work', 'the server closes connection #2'];
    const result = await runSimulation(target('reference'), resolveConfig({ seed: SEED }), scriptChoices(script), { record: true });
    const close = traceLines(result.trace).find((step) => step.action.startsWith('the server closes connection #2'))!;
    expect(close.notes).toEqual(['  ← #2 retry 1000 ms', '  ← #2 closed (the stream goes on)']);
    expect(result.violation).toBeNull();
  });
});

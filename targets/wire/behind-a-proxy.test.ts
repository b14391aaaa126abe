// Over the wire behind a proxy that rewrites sessions and progress tokens (targets/wire/fixtures/rewriting-proxy.ts):
// the reference, which holds in process, holds there too. The session of a probe-tool execution is read from the call
// as resumecheck sent it, not from the server's own session (which the client never saw); and the probe tools send
// progress with the token their request arrived with, so the proxy can route it back.

import { traceLines } from '../../sim/levels/vocabulary.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planWalk, walkChoices } from '../../sim/choices.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { scriptChoices } from '../../sim/shrink/script.ts';
import { type RewritingProxy, startRewritingProxy } from './fixtures/rewriting-proxy.ts';
import { type ServerProcess, createServerProcess, freePorts } from './server-process.ts';
import { type WireTarget, createWireTarget } from './wire.target.ts';

let backend: ServerProcess;
let proxy: RewritingProxy;
let wire: WireTarget;

beforeAll(async () => {
  const port = (await freePorts(1))[0]!;
  backend = createServerProcess('node examples/probe-server.mjs --target reference', '127.0.0.1');
  await backend.start({ port, epoch: 1 });
  proxy = await startRewritingProxy(`http://127.0.0.1:${port}/mcp`);
  wire = await createWireTarget({ url: proxy.url, serve: null, allowRemote: false, timing: { quietMs: 40 } });
  await wire.prepare();
});

afterAll(async () => {
  await wire?.stop();
  await proxy?.close();
  await backend?.stop();
});

describe('the reference behind a proxy that rewrites session IDs and progress tokens', () => {
  it('a work call: its progress and result arrive, attributed to the session the client knows', async () => {
    expect(wire.probe).toBe(true);
    const config = resolveConfig({ seed: 'proxy-script', restartsMax: 0, clients: 1 });
    const script = ['client 1 initializes', 'client 1 calls work', ...Array(3).fill('the server advances c1 (work, execution 1)')];
    const result = await runSimulation(wire, config, scriptChoices(script), { record: true });
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(notes.filter((note) => /starts executing \(execution 1, session px-/.test(note))).toHaveLength(1);
    expect(notes.filter((note) => /progress #\d of c1 \[epoch 1, session px-/.test(note))).toHaveLength(2);
    expect(notes.filter((note) => /result of c1 \[epoch 1, session px-/.test(note))).toHaveLength(1);
    expect(proxy.progressDropped).toBe(0);
    expect(result.violation).toBeNull();
  });

  it('seeded walks 1.3 and 1.5 (20 steps, no restarts) hold, as in process', async () => {
    for (const seed of ['1.3', '1.5']) {
      const config = resolveConfig({ seed, stepsMax: 20, restartsMax: 0 });
      const result = await runSimulation(wire, config, walkChoices(planWalk(config.seed, config.stepsMax)));
      expect({ seed, violation: result.violation }).toEqual({ seed, violation: null });
    }
    expect(proxy.progressDropped).toBe(0);
  });
});

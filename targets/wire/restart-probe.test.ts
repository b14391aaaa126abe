// Before the first run of a fuzz that restarts a served server, resumecheck asks whether a session the server named
// before a restart is served after it (WireTarget.sessionsOutliveRestart). Only an answer (2xx) says it is: a server
// that answers a session it no longer has 404, or 400 as server-everything 2026.8.31 does, ended it, and a request of
// that session after a restart is judged by status-codes. (A server that keeps its sessions in Redis, which answers,
// is in serve-node.test.ts.)

import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { scriptChoices } from '../../sim/shrink/script.ts';
import { type WireTarget, createWireTarget } from './wire.target.ts';

const started: WireTarget[] = [];

async function served(flags: string, restarts: boolean): Promise<WireTarget> {
  const target = await createWireTarget({ url: null, serve: `node targets/wire/fixtures/echo-server.mjs ${flags}`.trim(), allowRemote: false, timing: { quietMs: 40 } });
  started.push(target);
  await target.prepare({ restarts });
  return target;
}

const SCRIPT = ['client 1 initializes', 'the server restarts (epoch 2)', 'client 1 calls read'];
const config = resolveConfig({ seed: 'restart-probe', restartsMax: 1, clients: 1 });

afterAll(async () => {
  for (const target of started) await target.stop();
});

describe('whether a served server\'s sessions outlive a restart, asked before the first run', () => {
  it('is not asked when the runs never restart it', async () => {
    const wire = await served('', false);
    expect(wire.sessionsOutliveRestart).toBeNull();
    await wire.stop();
  });

  it('a server that answers a session it no longer has 404: no; the call after a restart gets 404 and nothing fails', async () => {
    const wire = await served('', true);
    expect(wire.sessionsOutliveRestart).toBe(false);
    const result = await runSimulation(wire, config, scriptChoices(SCRIPT), { record: true });
    expect(result.violation).toBeNull();
    await wire.stop();
  });

  it('a server that answers it 400: no, and the call after a restart fails status-codes (404 required)', async () => {
    const wire = await served('--dead-session-400', true);
    expect(wire.sessionsOutliveRestart).toBe(false);
    const result = await runSimulation(wire, config, scriptChoices(SCRIPT), { record: true });
    expect(result.violation?.property).toBe('status-codes');
    expect(result.violation?.explanation).toMatch(/got 400, expected 404/);
    await wire.stop();
  });
});

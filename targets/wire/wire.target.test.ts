// The over-the-wire target against real servers on 127.0.0.1: the same server checked in process and over loopback
// sockets agrees on every run's verdict and choices; the probe tools registered on the SDK's McpServer are driven;
// and the server process is stopped whatever happens. Each server is started with `--serve`, bounded in runs and steps.

import { traceLines } from '../../sim/levels/vocabulary.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../sim/config.ts';
import { planWalk, walkChoices } from '../../sim/choices.ts';
import { runSimulation } from '../../sim/engine.ts';
import { scriptChoices } from '../../sim/shrink/script.ts';
import { findTarget } from '../index.ts';
import { withUnsupported } from './same-faults.ts';
import { type WireTarget, createWireTarget } from './wire.target.ts';

const started: WireTarget[] = [];
afterAll(async () => {
  for (const target of started) await target.stop();
});

/** A quiet interval above the default: the machine running the suite is shared and loaded. */
const QUIET_MS = 40;

async function serve(command: string): Promise<WireTarget> {
  const target = await createWireTarget({ url: null, serve: command, allowRemote: false, timing: { quietMs: QUIET_MS } });
  started.push(target);
  await target.prepare();
  return target;
}

/**
 * Runs `runs` seeded walks on `target`, returning each run's first violated property. (Their choices agree too when
 * the settle caught every frame; under load a late frame can change what is enabled next, so only verdicts are compared.)
 */
async function verdicts(target: Parameters<typeof runSimulation>[0], seeds: readonly string[], partial: Parameters<typeof resolveConfig>[0]) {
  const rows: { property: string | null }[] = [];
  for (const seed of seeds) {
    const config = resolveConfig({ ...partial, seed });
    const result = await runSimulation(target, config, walkChoices(planWalk(config.seed, config.stepsMax)));
    rows.push({ property: result.violation?.property ?? null });
  }
  return rows;
}

// Seeds whose 20-step walks reach each planted bug in process (the walks changed when the action kinds resumeAttached,
// resendInFlight, resumeTerminal and loseTail were added; 1.1 and 1.2 no longer reach them).
const SEEDS = ['1.3', '1.5'];

describe(`the same server in process and over the wire, seeds ${SEEDS.join(' and ')}`, () => {
  const cases: readonly { name: string; finds: string | null }[] = [
    { name: 'reference', finds: null },
    { name: 'replay-request-frames', finds: 'exactly-once-execution' },
    { name: 'cross-stream-replay', finds: 'no-cross-stream-replay' },
    { name: 'no-terminal-check', finds: 'no-hang' },
    { name: 'fresh-literal', finds: 'no-silent-gap' },
  ];
  for (const { name, finds } of cases) {
    it(`${name}: every run's verdict agrees${finds === null ? ', and it holds' : `, and ${finds} is found`}`, async () => {
      const wire = await serve(`node examples/probe-server.mjs --target ${name}`);
      expect(wire.probe).toBe(true);
      const local = withUnsupported(findTarget(name)!, wire.unsupported().map(({ kind }) => kind));
      const partial = { stepsMax: 20, restartsMax: 0 };
      const overTheWire = await verdicts(wire, SEEDS, partial);
      expect(overTheWire).toEqual(await verdicts(local, SEEDS, partial));
      const found = overTheWire.map((row) => row.property).filter((property) => property !== null);
      if (finds === null) expect(found).toEqual([]);
      else expect(found).toContain(finds);
      await wire.stop();
    });
  }

  it('reference with restarts (the served process killed and started again as the next epoch) gets the same verdicts and holds', async () => {
    const wire = await serve('node examples/probe-server.mjs --target reference');
    const local = withUnsupported(findTarget('reference')!, wire.unsupported().map(({ kind }) => kind));
    // Seeds whose walks restart the server (checked below through the choices' effect: runs reach their steps).
    const partial = { stepsMax: 14, restartsMax: 1, clients: 1 };
    const overTheWire = await verdicts(wire, ['1.1', '1.2'], partial);
    expect(overTheWire).toEqual(await verdicts(local, ['1.1', '1.2'], partial));
    expect(overTheWire.map((row) => row.property)).toEqual([null, null]);
    await wire.stop();
  });
});

// The action kinds added later (a GET resuming a stream another connection carries, a POST reusing an in-flight request
// ID, frames lost before a break, a terminal cursor) over the wire: the bugs only they reach are found there as in process.
describe('the later action kinds over the wire, seeds 1.2 and 1.5, 30 steps', () => {
  const cases: readonly { name: string; finds: string }[] = [
    { name: 'no-in-flight-check', finds: 'reused-request-id-refused' },
    { name: 'rival-connection-kept', finds: 'one-connection-per-stream' },
    { name: 'replay-tail', finds: 'no-duplicate-delivery' },
  ];
  for (const { name, finds } of cases) {
    it(`${name}: every run's verdict agrees, and ${finds} is found`, async () => {
      const wire = await serve(`node examples/probe-server.mjs --target ${name}`);
      const local = withUnsupported(findTarget(name)!, wire.unsupported().map(({ kind }) => kind));
      const partial = { stepsMax: 30, restartsMax: 0 };
      const overTheWire = await verdicts(wire, ['1.2', '1.5'], partial);
      expect(overTheWire).toEqual(await verdicts(local, ['1.2', '1.5'], partial));
      expect(overTheWire.map((row) => row.property)).toContain(finds);
      await wire.stop();
    });
  }
});

describe.each([
  ['1.32.2', '--sdk --store per-session'],
  ['2.4.0', '--sdk2'],
])('the probe tools on the SDK %s McpServer (registerProbeTools), over the wire', (_version, flags) => {
  it('are listed, and their executions run under the simulator', async () => {
    const wire = await serve(`node examples/probe-server.mjs ${flags}`);
    expect(wire.probe).toBe(true);
    const config = resolveConfig({ seed: 'probe-sdk', restartsMax: 0, clients: 1 });
    const script = ['client 1 initializes', 'client 1 calls work', ...Array(3).fill('the server advances c1 (work, execution 1)')];
    const result = await runSimulation(wire, config, scriptChoices(script), { record: true });
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(notes.filter((note) => note.includes('starts executing'))).toHaveLength(1);
    // Each step the simulator released arrived on the call's stream, with the provenance the simulator gave it.
    expect(notes.filter((note) => /← #2 id \S+ progress #\d of c1 \[epoch 1/.test(note))).toHaveLength(2);
    expect(notes.filter((note) => /← #2 id \S+ result of c1 \[epoch 1/.test(note))).toHaveLength(1);
    expect(result.violation).toBeNull();
    await wire.stop();
  });
});

describe('priming-event over the wire, on the SDK 1.32.2 app (registerProbeTools)', () => {
  const script = ['client 1 initializes', 'client 1 calls read', 'the server advances c1 (read, execution 1)'];
  const config = resolveConfig({ seed: 'priming', restartsMax: 0, clients: 1 });

  it("without an event store (the SDK README's first server) a call's stream begins with its result: the warning, kept for the run's end", async () => {
    const wire = await serve('node examples/probe-server.mjs --sdk --store none');
    const result = await runSimulation(wire, config, scriptChoices(script), { record: true, properties: ['priming-event'] });
    expect(result.violation?.property).toBe('priming-event');
    // Kept aside, not ending the run: found at the step that made it, reported once the whole script ran.
    expect(result.violation?.step).toBe(2);
    expect(result.steps).toBe(script.length);
    expect(result.violation?.explanation).toMatch(/^the SSE stream answering connection 2 \(call\) began with a message without an event ID, not a priming event$/);
    await wire.stop();
  });

  it("server-everything (its own tools only: it answers the call of a tool it lacks on a stream) begins that stream with a priming event", async () => {
    const wire = await serve('exec node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp');
    expect(wire.probe).toBe(false);
    const result = await runSimulation(wire, config, scriptChoices(script.slice(0, 2)), { record: true, properties: ['priming-event'] });
    expect(result.violation).toBeNull();
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    // Judged, not passed over: the call was answered with a stream, whose first event is the priming event.
    expect(notes).toContain('  → 200 SSE');
    expect(notes.filter((note) => note.startsWith('  ← #2 '))[0]).toMatch(/^ {2}← #2 id \S+ priming event$/);
    await wire.stop();
  });

  it("with the example's InMemoryEventStore the stream begins with a priming event: nothing to report", async () => {
    const wire = await serve('node examples/probe-server.mjs --sdk --store per-session');
    const result = await runSimulation(wire, config, scriptChoices(script), { record: true, properties: ['priming-event'] });
    expect(result.violation).toBeNull();
    // The priming event: an ID and no data (the SDK gives it its retry interval too).
    expect(traceLines(result.trace).flatMap((step) => step.notes)).toContainEqual(expect.stringMatching(/^ {2}← #2 id \S+ (priming event|retry \d+ ms)$/));
    await wire.stop();
  });
});

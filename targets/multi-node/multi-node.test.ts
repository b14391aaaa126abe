// Several nodes behind a balancer over one shared storage: the reference design holds under every balancer, with node
// crashes and a store lag; the planted no-handoff bug is caught and shrunk to its minimum; the SDK's nodes behave as
// its example servers do (a node that did not initialize a session answers 404), and a shared example store outlives
// a node's crash, replaying a client's old cursor into its new session.

import { traceLines } from '../../sim/levels/vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { sequenceChoices } from '../../sim/choices.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { explore } from '../../sim/search/explore.ts';
import { fuzz } from '../../sim/search/fuzz.ts';
import { scriptChoices } from '../../sim/shrink/script.ts';
import { referenceTarget } from '../reference/reference.target.ts';
import { sdkCoreTarget, sdkSharedTarget } from '../sdk/index.ts';
import type { HttpRequest } from '../target.ts';
import { BALANCER_NAMES, createBalancer } from './balancer.ts';
import { TopologyError, multiNodeName, multiNodeTarget, parseMultiNodeName } from './multi-node.target.ts';
import { noHandoffTarget } from './no-handoff.target.ts';

const get = (connection: number, sessionId: string | null): HttpRequest => ({ method: 'GET', connection, sessionId, lastEventId: null });

describe('the balancer', () => {
  it('round-robin takes the nodes in turn and skips the one down', () => {
    const balancer = createBalancer('round-robin', '1');
    const all = [true, true, true];
    expect([0, 1, 2, 3].map((connection) => balancer.pick(get(connection, 's'), all))).toEqual([0, 1, 2, 0]);
    expect([4, 5, 6].map((connection) => balancer.pick(get(connection, 's'), [true, false, true]))).toEqual([2, 0, 2]);
  });

  it('sticky keeps a pinned session on its node, and re-pins it when that node is down', () => {
    const balancer = createBalancer('sticky', '1');
    balancer.pinned('s', 1);
    expect(balancer.pick(get(0, 's'), [true, true, true])).toBe(1);
    const moved = balancer.pick(get(1, 's'), [true, false, true]);
    expect(moved).not.toBe(1);
    expect(balancer.pick(get(2, 's'), [true, true, true])).toBe(moved);
  });

  it('failover sends everything to the lowest-numbered node up', () => {
    const balancer = createBalancer('failover', '1');
    expect(balancer.pick(get(0, 's'), [true, true])).toBe(0);
    expect(balancer.pick(get(1, 's'), [false, true])).toBe(1);
  });

  it('seed 1: random is a function of (seed, connection): the same twice, spread over the nodes, another seed differs', () => {
    const picks = (seed: string) => Array.from({ length: 60 }, (_, connection) => createBalancer('random', seed).pick(get(connection, 's'), [true, true, true]));
    expect(picks('1')).toEqual(picks('1'));
    expect(new Set(picks('1')).size).toBe(3);
    // Consecutive connections are not correlated: over 60, some pairs land on the same node, and about a third do.
    const same = picks('1').filter((node, connection, all) => connection > 0 && all[connection - 1] === node).length;
    expect(same).toBeGreaterThan(8);
    expect(same).toBeLessThan(32);
    expect(picks('2')).not.toEqual(picks('1'));
  });
});

describe('multi-node target names', () => {
  it('round-trip through parseMultiNodeName, lag included', () => {
    const topology = { nodes: 3, balancer: 'random', storeLagSteps: 2 } as const;
    expect(multiNodeName('reference', topology)).toBe('reference@3:random:lag2');
    expect(parseMultiNodeName('reference@3:random:lag2')).toEqual({ base: 'reference', topology });
    expect(parseMultiNodeName('module:dir/a@b.ts')).toBeNull();
    expect(() => parseMultiNodeName('reference@9:sticky')).toThrow(TopologyError);
  });

  it('a store lag is refused on the SDK targets, whose nodes never read each other\'s writes', () => {
    expect(() => multiNodeTarget(sdkCoreTarget, { nodes: 2, balancer: 'round-robin', storeLagSteps: 1 })).toThrow(/--store-lag applies to the kit targets/);
  });
});

const NODE_SCRIPT_CRASH = [
  'client 1 initializes',
  'client 1 calls work',
  'the network cuts connection #2 (client 1)',
  'the server advances c1 (work, execution 1)',
  'node 1 crashes',
  'client 1 calls read',
  'client 1 initializes',
  'client 1 resumes with a cursor from before the restart',
];

describe('node crashes', () => {
  it('seed 1: on the reference, a call whose node crashes ends with a reset on the node that holds its resumed connection', async () => {
    const target = multiNodeTarget(referenceTarget, { nodes: 2, balancer: 'round-robin', storeLagSteps: 0 });
    const script = [
      'client 1 initializes', // node 1, its notifications/initialized node 2
      'client 1 calls work', // node 1 runs it
      'the network cuts connection #2 (client 1)',
      'client 1 resumes the stream of c1 with its latest cursor', // node 2 takes the stream over
      'node 1 crashes',
    ];
    const result = await runSimulation(target, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(notes).toContain('  → 200 SSE (node 2)');
    expect(notes.some((note) => note.startsWith('  ← #3 reset {"reason":"aborted"'))).toBe(true);
    expect(notes).toContain('  ← #3 end of stream');
  });

  it('seed 1: a shared example store (sdk-shared) outlives a node: the old cursor replays the old session into the new one', async () => {
    const config = resolveConfig({ seed: '1' });
    const shared = await runSimulation(multiNodeTarget(sdkSharedTarget, { nodes: 2, balancer: 'failover', storeLagSteps: 0 }), config, scriptChoices(NODE_SCRIPT_CRASH), { record: true });
    expect(shared.violation?.property).toBe('no-cross-session-delivery');
    // The SDK's node 2 does not know the session node 1 initialized: 404, as the SDK's example servers answer.
    expect(traceLines(shared.trace).flatMap((step) => step.notes)).toContain('  → 404 (node 2)');
    // resumecheck/event-store as the shared storage scopes the cursor to its session: refused, nothing replayed.
    const core = await runSimulation(multiNodeTarget(sdkCoreTarget, { nodes: 2, balancer: 'failover', storeLagSteps: 0 }), config, scriptChoices(NODE_SCRIPT_CRASH), { record: true });
    expect(core.violation).toBeNull();
    expect(traceLines(core.trace).at(-1)!.notes).toContain('  → 400 (node 2)');
  });
});

describe('node crashes on the SDK targets never crash the harness', () => {
  const failover = multiNodeTarget(sdkCoreTarget, { nodes: 2, balancer: 'failover', storeLagSteps: 0 });

  it('seed 1: a connection losing its tail is dropped with its node; nothing reaches the node\'s next incarnation about it', async () => {
    const script = [
      'client 1 initializes',
      'client 1 calls work', // #2 on node 1
      'the network loses the next 2 frames on connection #2 (client 1), then breaks it',
      'node 1 crashes', // #2 goes with it: the client sees it cut now, not at the liveness phase
      'node 1 boots again',
    ];
    const result = await runSimulation(failover, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    // Before the fix the liveness phase cut #2 on node 1's new incarnation: "connection 2 was never opened".
    expect(traceLines(result.trace).map((step) => step.action)).not.toContain('the network cuts connection #2 (client 1)');
    expect(traceLines(result.trace).at(-1)!.notes).toContain('  → 404 (node 1)');
  });

  it('seed 1: a node that crashed and booted again is never asked about the connections and executions of its last life', async () => {
    const run = await failover.open({ windowEventsMax: 2, seed: '1' });
    try {
      const executions: number[] = [];
      const host = {
        frame: () => undefined,
        end: () => undefined,
        startExecution: () => executions.push(executions.length + 1),
        nextStep: () => ({ kind: 'result' as const, result: {} }),
        cancelled: () => undefined,
        random: () => 0.5,
      };
      const deployment = run.boot({ epoch: 1 }, host);
      const initialize: HttpRequest = { method: 'POST', connection: 0, sessionId: null, lastEventId: null, body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } } };
      const answered = await deployment.handle(initialize);
      expect(answered.node).toBe(0);
      await deployment.crashNode!(0);
      deployment.restartNode!(0);
      // Connection 0 was node 1's: its new incarnation never saw it, so a cut or a close of it is a no-op.
      await deployment.cut(0);
      await deployment.closeConnection(0, 1000);
      await deployment.dispose();
    } finally {
      await run.close();
    }
  });

  it('seed 1: a node crash while a call under a reused request ID runs (a call with no stream of its own)', async () => {
    const script = [
      'client 1 initializes',
      'client 1 calls work',
      'client 1 reuses request 2 of c1, still in flight, for a call of read', // the SDK runs it too
      'node 1 crashes',
    ];
    const result = await runSimulation(failover, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true, properties: ['no-cross-session-delivery'] });
    expect(traceLines(result.trace).map((step) => step.action)).toContain('node 1 crashes');
    expect(traceLines(result.trace).flatMap((step) => step.notes).filter((note) => note.includes('starts executing'))).toHaveLength(2);
  });
});

describe('the SDK behind a non-sticky balancer', () => {
  it('seed 1: sdk-core@3:round-robin never keeps a session: its notifications/initialized reaches another node, which answers 404', async () => {
    const target = multiNodeTarget(sdkCoreTarget, { nodes: 3, balancer: 'round-robin', storeLagSteps: 0 });
    const outcome = await fuzz({ target, config: resolveConfig({ seed: '1' }), runsMax: 30, timeMs: null });
    expect(outcome.finding).toBeNull();
    // Why it holds: no tool ever runs. Every session's first request after initialize lands on the next node.
    const result = await runSimulation(target, resolveConfig({ seed: '1' }), scriptChoices(['client 1 initializes', 'client 1 initializes']), { record: true });
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(notes.filter((note) => note.includes('Mcp-Session-Id')).map((note) => note.slice(-8))).toEqual(['(node 1)', '(node 3)']);
    expect(notes.filter((note) => note.startsWith('  → 404'))).toEqual(['  → 404 (node 2)', '  → 404 (node 1)']);
  });
});

describe('store lag', () => {
  it('seed 1: a write reaches the node holding the connection late, in order, and the liveness phase waits for it', async () => {
    const target = multiNodeTarget(referenceTarget, { nodes: 2, balancer: 'round-robin', storeLagSteps: 3 });
    const script = [
      'client 1 initializes',
      'client 1 calls work', // node 1 runs it
      'the network cuts connection #2 (client 1)',
      'client 1 resumes the stream of c1 with its latest cursor', // node 2 holds the connection
      'the server advances c1 (work, execution 1)', // written by node 1: not visible to node 2 yet
    ];
    const result = await runSimulation(target, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    const steps = traceLines(result.trace);
    expect(steps[4]!.notes.filter((note) => note.startsWith('  ← #3'))).toEqual([]);
    const arrived = steps.flatMap((step) => step.notes).filter((note) => note.startsWith('  ← #3'));
    expect(arrived.map((note) => note.replace(/ \[.*$/, ''))).toEqual([
      '  ← #3 id e1.1.1.2 progress #1 of c1',
      '  ← #3 id e1.1.1.3 progress #2 of c1',
      '  ← #3 id e1.1.1.4 result of c1',
      '  ← #3 end of stream',
    ]);
  });

  // The two shortest witnesses of the bug fixed in issue 10 (docs/findings/multi-node.md, "Under a store lag"), and the
  // polling close the fix also had to change: each fails when the kit's delivery counts a held-back frame's stream as
  // released, or a frame flushed onto a cut connection as written, or holds a polling close back behind the lag.
  const lagged = multiNodeTarget(referenceTarget, { nodes: 3, balancer: 'round-robin', storeLagSteps: 2 });
  const opening = ['client 1 initializes', 'client 1 calls read', 'the network cuts connection #2 (client 1)']; // node 3 runs c1

  it('seed 1: a second resume on another node ends the first resume\'s connection at once, though its end was still held back', async () => {
    const script = [
      ...opening,
      'client 1 resumes the stream of c1 with its latest cursor', // #3 on node 1
      'the server advances c1 (read, execution 1)', // node 3 writes the result: held back from #3, and so is its end
      'client 1 resumes the stream of c1 with its latest cursor while connection #3 still carries it', // #4 on node 2
    ];
    const result = await runSimulation(lagged, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(traceLines(result.trace)[5]!.notes).toContain('  ← #3 end of stream');
    expect(notes.filter((note) => note.startsWith('  ← #3'))).toEqual(['  ← #3 end of stream']);
    expect(notes.filter((note) => note.includes('result of c1')).map((note) => note.slice(0, 7))).toEqual(['  ← #4 ']);
  });

  it('seed 1: a result held back from a connection the network then cuts was never written: the next resume delivers it', async () => {
    const script = [
      ...opening,
      'the server advances c1 (read, execution 1)', // node 3 writes the result with no connection attached
      'client 1 resumes the stream of c1 with its latest cursor', // #3 on node 1: the replayed result is held back
      'the network cuts connection #3 (client 1)', // in the operation the result would have gone out
      'client 1 resumes the stream of c1 with its latest cursor',
    ];
    const result = await runSimulation(lagged, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(notes.some((note) => note.includes('possibly-delivered'))).toBe(false);
    expect(notes.filter((note) => note.includes('result of c1')).map((note) => note.slice(0, 7))).toEqual(['  ← #4 ']);
  });

  it('seed 1: a polling close ends the connection in its own operation; what the lag held back for it is replayed on the resume', async () => {
    const script = [
      'client 1 initializes',
      'client 1 calls work', // node 3 runs c1
      'the network cuts connection #2 (client 1)',
      'client 1 resumes the stream of c1 with its latest cursor', // #3 on node 1
      'the server advances c1 (work, execution 1)', // progress #1, held back from #3
      'the server closes connection #3 asking client 1 to poll back',
      'client 1 resumes the stream of c1 with its latest cursor',
    ];
    const result = await runSimulation(lagged, resolveConfig({ seed: '1' }), scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    expect(traceLines(result.trace)[5]!.notes).toEqual(['  ← #3 retry 1000 ms', '  ← #3 closed (the stream goes on)']);
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    expect(notes.filter((note) => note.includes('progress #1 of c1')).map((note) => note.slice(0, 7))).toEqual(['  ← #4 ']);
  });
});

const SEED = '1';
const REFERENCE_RUNS = 1500;

describe(`the reference multi-node design holds (seed ${SEED}, ${REFERENCE_RUNS} runs each)`, () => {
  for (const balancer of BALANCER_NAMES) {
    for (const storeLagSteps of [0, 2]) {
      it(`reference@3:${balancer}${storeLagSteps > 0 ? `:lag${storeLagSteps}` : ''}: no violation (seed ${SEED})`, async () => {
        const target = multiNodeTarget(referenceTarget, { nodes: 3, balancer, storeLagSteps });
        const outcome = await fuzz({ target, config: resolveConfig({ seed: SEED }), runsMax: REFERENCE_RUNS, timeMs: null });
        expect(outcome.finding?.trace.verdict ?? null).toBeNull();
        expect(outcome.steps).toBeGreaterThan(REFERENCE_RUNS * 5);
      });
    }
  }
});

describe('the planted multi-node bug: no-handoff (a node delivers only its own writes)', () => {
  it(`seed ${SEED}: no-handoff@3:round-robin loses a result behind a 200 resume (scripted), and fuzz finds and shrinks no-lost-result to its minimum; it holds on one node`, async () => {
    const target = multiNodeTarget(noHandoffTarget, { nodes: 3, balancer: 'round-robin', storeLagSteps: 0 });
    const config = resolveConfig({ seed: SEED });
    // The issue's scenario: a resume lands on a node that does not hold the live call, is answered 200, and hangs.
    const resume = ['client 1 initializes', 'client 1 calls read', 'the network cuts connection #2 (client 1)', 'client 1 resumes the stream of c1 with its latest cursor'];
    const scripted = await runSimulation(target, config, scriptChoices(resume), { record: true, properties: ['no-lost-result'] });
    expect(scripted.violation?.property).toBe('no-lost-result');
    expect(traceLines(scripted.trace)[3]!.notes).toContain('  → 200 SSE (node 1)');
    const onReference = await runSimulation(multiNodeTarget(referenceTarget, { nodes: 3, balancer: 'round-robin', storeLagSteps: 0 }), config, scriptChoices(resume));
    expect(onReference.violation).toBeNull();
    // The fuzz finds it and shrinks to the exhaustive minimum, 3 steps: another face of the same bug (the session's home
    // node expires it and cannot end the connection node 3 holds for its call), or the 4-step resume above.
    const outcome = await fuzz({ target, config, runsMax: 2000, timeMs: null, properties: ['no-lost-result'] });
    const finding = outcome.finding;
    expect(finding?.trace.verdict?.property).toBe('no-lost-result');
    const shortest = await explore(target, config, { depthMax: 3, runsMax: 5000, only: 'no-lost-result' });
    expect(shortest.depthCleared).toBe(2);
    expect(finding!.trace.steps.filter((step) => step.phase === 'faults').length).toBeLessThanOrEqual(4);
    const minimum = await runSimulation(target, config, sequenceChoices(shortest.choices!), { record: true, properties: ['no-lost-result'] });
    expect(traceLines(minimum.trace).map((step) => step.action).slice(0, 3)).toEqual(['client 1 initializes', 'client 1 calls read', "the server expires client 1's session"]);
    const findingOnReference = await runSimulation(multiNodeTarget(referenceTarget, { nodes: 3, balancer: 'round-robin', storeLagSteps: 0 }), config, sequenceChoices(finding!.trace.choices));
    expect(findingOnReference.violation).toBeNull();
    const oneNode = await fuzz({ target: noHandoffTarget, config, runsMax: 500, timeMs: null });
    expect(oneNode.finding).toBeNull();
  });

  it(`seed ${SEED}: every break it lists is reached`, async () => {
    const target = multiNodeTarget(noHandoffTarget, { nodes: 3, balancer: 'round-robin', storeLagSteps: 0 });
    for (const property of noHandoffTarget.breaks) {
      const outcome = await fuzz({ target, config: resolveConfig({ seed: SEED }), runsMax: 2000, timeMs: null, properties: [property] });
      expect(outcome.finding?.trace.verdict?.property, property).toBe(property);
    }
  });
});

describe('determinism', () => {
  it('seed 7: the same seed gives the same trace on reference@3:random:lag2 (node crashes included)', async () => {
    const target = multiNodeTarget(referenceTarget, { nodes: 3, balancer: 'random', storeLagSteps: 2 });
    const config = resolveConfig({ seed: '7', stepsMax: 60 });
    const choices = Array.from({ length: 60 }, (_, index) => (index * 7919) % 97);
    const first = await runSimulation(target, config, sequenceChoices(choices), { record: true });
    const second = await runSimulation(target, config, sequenceChoices(choices), { record: true });
    expect(JSON.stringify(second.trace)).toBe(JSON.stringify(first.trace));
  });
});

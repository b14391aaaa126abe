// A real deployment of several nodes over the wire (`fuzz --serve-node`): the SDK 1.32.2 app started as two processes
// on ports of their own, both over one redis-server started here on 127.0.0.1, resumecheck's balancer in front. The
// correct Redis store (scoped to each session) and a broken one (keyed by stream alone) are told apart by scripted
// runs; a node's crash kills its process, its boot starts a new one, and the store outlives it. Every run is bounded
// in steps, every process is stopped.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { traceLines } from '../../sim/levels/vocabulary.ts';
import { scriptChoices } from '../../sim/shrink/script.ts';
import { type RedisServer, redisServerAvailable, startRedisServer } from '../../test/redis-server.ts';
import { FOREIGN_CURSOR_SCRIPT } from './fixtures/foreign-cursor.ts';
import { type WireTarget, createWireTarget } from './wire.target.ts';

/** A quiet interval above the default: the machine running the suite is shared and loaded. */
const QUIET_MS = 40;
const PROPERTIES = ['no-cross-session-delivery', 'no-cross-stream-replay'] as const;
/** A slow store's latency per write, in milliseconds: far above the quiet interval. */
const STORE_LATENCY_MS = 150;

const started: WireTarget[] = [];

/** Each write to the store `latencyMs` later, as a store that acknowledges a write once replicated; 0 by default. */
async function deploy(store: 'redis' | 'redis-unscoped', latencyMs = 0): Promise<WireTarget> {
  const target = await createWireTarget({
    url: null,
    serve: `node examples/probe-server.mjs --sdk --store ${store}${latencyMs > 0 ? ` --store-write-latency-ms ${latencyMs}` : ''}`,
    allowRemote: false,
    timing: { quietMs: QUIET_MS },
    nodes: { count: 2, balancer: 'sticky' },
  });
  started.push(target);
  await target.prepare();
  return target;
}

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

/** `fuzz --serve-node` of the SDK app over the scoped Redis store behind `balancer`, seed 1, no corpus, with `args`. */
function fuzzDeployment(balancer: string, args: readonly string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out = `${process.env['TMPDIR'] ?? '/tmp'}/resumecheck-serve-node-${balancer}-${process.pid}`;
  const served = 'node examples/probe-server.mjs --sdk --store redis';
  return run(['fuzz', '--serve-node', served, '--balancer', balancer, ...args, '--seed', '1', '--no-corpus', '--out', out, '--settle-ms', String(QUIET_MS)]);
}

// Two sessions, each with its standalone stream; client 2's is cut after a notification, client 1 is notified, and
// client 2 resumes its own stream from its own cursor. The SDK names every session's standalone stream `_GET_stream`:
// what the resume sends after the cursor is the store's doing.
const TWO_STANDALONE = [
  'client 1 initializes',
  'client 2 initializes',
  'client 1 opens a standalone GET stream',
  'client 2 opens a standalone GET stream',
  'the server notifies client 2 on its standalone stream',
  'the network cuts connection #5 (client 2)',
  'the server notifies client 1 on its standalone stream',
  'client 2 resumes its standalone stream with its latest cursor',
];
const config = resolveConfig({ seed: 'serve-node', restartsMax: 0, clients: 2 });

const REDIS = redisServerAvailable();

// One redis-server for the file's deployments, started only where the package is installed.
let redis: RedisServer | null = null;
const previousRedisUrl = process.env['REDIS_URL'];
beforeAll(async () => {
  if (!REDIS) return;
  redis = await startRedisServer();
  // Every node process inherits it, as a deployment's nodes share their store's address.
  process.env['REDIS_URL'] = redis.url;
});
afterAll(async () => {
  for (const target of started) await target.stop();
  if (previousRedisUrl === undefined) delete process.env['REDIS_URL'];
  else process.env['REDIS_URL'] = previousRedisUrl;
  await redis?.stop();
});

describe.skipIf(!REDIS)('the SDK app on 2 nodes over one redis-server started here (127.0.0.1, a free port), behind a sticky balancer', () => {

  it("keyed by stream alone: client 2's resume of its own standalone stream replays client 1's notification into session 2 (a MUST), answered by node 1 or 2", async () => {
    const wire = await deploy('redis-unscoped');
    expect(wire.probe).toBe(true);
    expect(wire.nodeUrls).toHaveLength(2);
    const result = await runSimulation(wire, config, scriptChoices(TWO_STANDALONE), { record: true, properties: [...PROPERTIES] });
    expect(result.steps).toBe(TWO_STANDALONE.length);
    expect(result.violation?.property).toBe('no-cross-session-delivery');
    expect(result.violation?.explanation).toMatch(/^notification #1 \(epoch 1, session \S+\) was delivered to session \S+ on connection 6$/);
    const notes = traceLines(result.trace).flatMap((step) => step.notes);
    // The balancer's choice is in each response: the two sessions' initializes were answered by nodes.
    expect(notes.filter((note) => /^→ 200 SSE Mcp-Session-Id: \S+ \(node [12]\)$/.test(note.trim()))).toHaveLength(2);
    await wire.stop();
  });

  it('scoped to its session: the same resume sends client 2 nothing of session 1, and both properties hold', async () => {
    const wire = await deploy('redis');
    const result = await runSimulation(wire, config, scriptChoices(TWO_STANDALONE), { record: true, properties: [...PROPERTIES] });
    expect(result.steps).toBe(TWO_STANDALONE.length);
    expect(result.violation).toBeNull();
    const resumed = traceLines(result.trace)[TWO_STANDALONE.length - 1]!.notes;
    expect(resumed.some((note) => /→ 200 SSE \(node [12]\)/.test(note))).toBe(true);
    expect(resumed.filter((note) => note.includes('← #6 id'))).toEqual([]);
    await wire.stop();
  });

  // Each write to the store 150 ms late: client 2's result is in the store well after its tool returned it, and the run reads
  // it by the app's acknowledgement of the result (probe/probe-tools.ts, acknowledgeResults), not by a quiet interval
  // (without it the unscoped store's replay came before the result was stored, and the run held: seen on a loaded
  // machine at 0 ms, every time at 60 ms).
  it("scoped to its session: another session's cursor is refused (400), where the unscoped store replays client 2's result into session 1 (its writes 150 ms late)", async () => {
    const scoped = await deploy('redis', STORE_LATENCY_MS);
    const held = await runSimulation(scoped, config, scriptChoices(FOREIGN_CURSOR_SCRIPT), { record: true, properties: [...PROPERTIES] });
    expect(held.violation).toBeNull();
    expect(traceLines(held.trace)[FOREIGN_CURSOR_SCRIPT.length - 1]!.notes.some((note) => /→ 400 \(node [12]\)/.test(note))).toBe(true);
    await scoped.stop();
    const unscoped = await deploy('redis-unscoped', STORE_LATENCY_MS);
    const broken = await runSimulation(unscoped, config, scriptChoices(FOREIGN_CURSOR_SCRIPT), { record: true, properties: [...PROPERTIES] });
    expect(broken.violation?.property).toBe('no-cross-session-delivery');
    expect(broken.violation?.explanation).toMatch(/^the result of c1 \(epoch 1, session \S+\) was delivered to session \S+ on connection 5$/);
    await unscoped.stop();
  });

  it("a node's crash kills its process and its boot starts a new one; the session it held is gone (404), a new one is served, and the store's properties hold", async () => {
    const wire = await deploy('redis');
    const script = [
      'client 1 initializes',
      'client 1 calls read',
      'the server advances c1 (read, execution 1)',
      'node 1 crashes',
      'node 1 boots again',
      'client 1 calls read',
    ];
    const result = await runSimulation(wire, resolveConfig({ seed: 'serve-node-crash', restartsMax: 0, clients: 1 }), scriptChoices(script), {
      record: true,
      properties: [...PROPERTIES],
    });
    const lines = traceLines(result.trace);
    expect(lines.map((step) => step.action).slice(0, script.length)).toEqual(script);
    expect(result.violation).toBeNull();
    // The call after the crash went to a node that never saw the session (the SDK keeps its transports in memory).
    expect(lines[5]!.notes.some((note) => /→ 404 \(node [12]\)/.test(note))).toBe(true);
    await wire.stop();
  });

  it('fuzz --serve-node runs the deployment from the command line, says what it started, and finds nothing against the correct store', async () => {
    // Two runs, not three: seed 1's first answers none of its calls (alone it gives no verdict), and the two crash a node.
    const { code, out, err } = await fuzzDeployment('sticky', ['--nodes', '2', '--runs', '2', ...PROPERTIES.flatMap((property) => ['--property', property])]);
    expect(err).toEqual([]);
    const text = out.join('\n');
    expect(text).toMatch(/^resumecheck fuzz: target serve-node:node examples\/probe-server\.mjs --sdk --store redis@2:sticky, seed 1, 2 runs/);
    expect(text).toMatch(/\n {2}nodes: 2 processes of the command \(127\.0\.0\.1:\d+, 127\.0\.0\.1:\d+\)/);
    expect(text).toMatch(/\n✓ no violation in 2 runs/);
    // Asked before the first run (its runs restart the deployment): each process keeps its sessions in memory.
    expect(text).not.toMatch(/sessions outlive a restart/);
    // Seed 1's runs crash a node (the simulator's choice, not the clock's).
    expect(text).not.toMatch(/never: [^\n]*crashNode/);
    expect(code).toBe(0);
  });

  it('behind round-robin on 3 nodes no session survives (each process keeps its sessions in memory): no verdict, exit 1, not a pass', async () => {
    const { code, out, err } = await fuzzDeployment('round-robin', ['--nodes', '3', '--runs', '2', '--steps', '8', '--restarts', '0']);
    expect(err).toEqual([]);
    const text = out.join('\n');
    expect(text).toMatch(/\n\? no verdict in 2 runs \(\d+ steps\): no session survived its second request \(\d+ sessions established/);
    expect(text).toMatch(/\n {2}sessions {3}0 of \d+ outlived their initialize/);
    expect(code).toBe(1);
  });
});

/** The SDK app over Redis with its sessions in Redis too (`--sessions redis`): any node serves any session. */
async function deployShared(store: 'redis' | 'redis-unscoped', options: { restarts?: boolean } = {}): Promise<WireTarget> {
  const target = await createWireTarget({
    url: null,
    serve: `node examples/probe-server.mjs --sdk --store ${store} --sessions redis`,
    allowRemote: false,
    timing: { quietMs: QUIET_MS },
    nodes: { count: 3, balancer: 'round-robin' },
  });
  started.push(target);
  await target.prepare({ restarts: options.restarts === true });
  return target;
}

describe.skipIf(!REDIS)('the SDK app with its sessions in Redis (--sessions redis) on 3 nodes behind round-robin, over the same redis-server', () => {

  it('a session outlives the crash of the node that made it and a restart of every node: each call is answered by whichever node the balancer picks, and every property holds', async () => {
    const wire = await deployShared('redis', { restarts: true });
    // Asked before the first run: the check's session was served after a restart of every process.
    expect(wire.sessionsOutliveRestart).toBe(true);
    const script = [
      'client 1 initializes',
      'client 1 calls read',
      'the server advances c1 (read, execution 1)',
      'node 1 crashes',
      'client 1 calls read',
      'the server advances c2 (read, execution 2)',
      'node 1 boots again',
      'the server restarts (epoch 2)',
      'client 1 calls append',
      'the server advances c3 (append, execution 3)',
    ];
    const result = await runSimulation(wire, resolveConfig({ seed: 'serve-node-shared', restartsMax: 1, clients: 1 }), scriptChoices(script), { record: true });
    const lines = traceLines(result.trace);
    expect(lines.map((step) => step.action).slice(0, script.length)).toEqual(script);
    expect(result.violation).toBeNull();
    // After the crash, and again after the restart, the session's call was answered 200 by a node, and its result came.
    for (const [call, step] of [['c2', 4], ['c3', 8]] as const) {
      expect(lines[step]!.notes.some((note) => /→ 200 SSE \(node [123]\)/.test(note))).toBe(true);
      expect(lines[step + 1]!.notes.some((note) => note.includes(`result of ${call} [`))).toBe(true);
    }
    await wire.stop();
  });

  it("keyed by stream alone, a proxy's foreign cursor replays client 2's result into session 1 (a MUST); scoped to its session, the cursor is refused (400)", async () => {
    const unscoped = await deployShared('redis-unscoped');
    const broken = await runSimulation(unscoped, config, scriptChoices(FOREIGN_CURSOR_SCRIPT), { record: true, properties: [...PROPERTIES] });
    expect(broken.violation?.property).toBe('no-cross-session-delivery');
    expect(broken.violation?.explanation).toMatch(/^the result of c1 \(epoch 1, session \S+\) was delivered to session \S+ on connection 5$/);
    await unscoped.stop();
    const scoped = await deployShared('redis');
    const held = await runSimulation(scoped, config, scriptChoices(FOREIGN_CURSOR_SCRIPT), { record: true, properties: [...PROPERTIES] });
    expect(held.violation).toBeNull();
    expect(traceLines(held.trace)[FOREIGN_CURSOR_SCRIPT.length - 1]!.notes.some((note) => /→ 400 \(node [123]\)/.test(note))).toBe(true);
    await scoped.stop();
  });

  it('fuzz --serve-node … --nodes 3 --balancer round-robin: every session survives, its sessions are found to outlive a restart, and nothing fails', async () => {
    const out = `${process.env['TMPDIR'] ?? '/tmp'}/resumecheck-serve-node-shared-${process.pid}`;
    const served = 'node examples/probe-server.mjs --sdk --store redis --sessions redis';
    const { code, out: lines, err } = await run(['fuzz', '--serve-node', served, '--nodes', '3', '--balancer', 'round-robin', '--runs', '2', '--steps', '10', '--seed', '1', '--no-corpus', '--out', out, '--settle-ms', String(QUIET_MS)]);
    expect(err).toEqual([]);
    const text = lines.join('\n');
    expect(text).toMatch(/\n {2}sessions outlive a restart: a session it named before a restart was served after one/);
    expect(text).toMatch(/\n {2}sessions {3}(\d+) of \1 outlived their initialize/);
    expect(text).not.toMatch(/\n✗ /);
    expect(code).toBe(0);
  });
});

describe('--serve-node: bad input is one line, exit 2, before anything starts', () => {
  const cases: readonly [string[], RegExp][] = [
    [['--serve-node', 'node x.mjs', '--balancer', 'nearest'], /^resumecheck: --balancer takes one of sticky, round-robin, random, failover, got "nearest"$/],
    [['--serve-node', 'node x.mjs', '--nodes', '9'], /^resumecheck: --nodes takes a whole number from 1 to 8/],
    [['--serve-node', 'node x.mjs', '--store-lag', '2'], /^resumecheck: --store-lag goes with --target/],
    [['--serve', 'node x.mjs', '--nodes', '2'], /^resumecheck: --nodes, --balancer and --store-lag go with --target or --serve-node "CMD"/],
    [['--serve', 'node x.mjs', '--serve-node', 'node x.mjs'], /^resumecheck: give --serve "CMD" \(one process\) or --serve-node "CMD" \(several nodes\), not both$/],
  ];
  for (const [args, message] of cases) {
    it(`fuzz ${args.join(' ')}`, async () => {
      const { code, out, err } = await run(['fuzz', ...args, '--runs', '1']);
      expect(out).toEqual([]);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(message);
      expect(code).toBe(2);
    });
  }
});

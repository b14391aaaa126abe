// Figure 4's baseline, "what a user would write instead": plain fast-check model-based testing (`fc.commands`
// + `fc.modelRun`) of the same targets. A small model of clients, sessions, calls, streams and cursors, one
// command class per kind of step it covers (FC_COMMANDS: which of the engine's action kinds each stands for; the
// bench prints how many of them, from that table), a simple host like sim/levels/server-level.ts's driving the
// target's `ServerInstance`, and simple asserts equivalent to the properties (properties/). After the commands,
// a liveness phase like the engine's lets the work finish and the clients resume, then the final checks run.
// Self-contained on purpose: it depends only on the target interface, not on the simulator's world.

import fc from 'fast-check';
import type { PropertyName } from '../properties/names.ts';
import { createPrng } from '../sim/prng.ts';
import type { Frame, HttpRequest, HttpResponse, JsonRpcMessage, ServerInstance, Target, TargetHost, TargetRun, ToolName } from '../targets/target.ts';
import { TOOL_NAMES } from '../targets/target.ts';
import type { ActionKind } from '../sim/config.ts';
import { nowMs } from './measure.ts';

/** Bounds of the baseline's world, the engine's defaults. */
export interface FcConfig {
  readonly clients: number;
  readonly callsPerSessionMax: number;
  readonly restartsMax: number;
  readonly workProgressSteps: number;
  readonly windowEventsMax: number;
}

const PROTOCOL_VERSION = '2025-11-25';
const HEAL_ROUNDS_MAX = 6;

/** Where a server-emitted message came from, known to the host that made it. */
interface Tag {
  readonly epoch: number;
  readonly sessionId: string;
  readonly callId: string | null;
  readonly k: number;
  /** 1 for the call's first execution; a re-execution's messages are new messages, with no position to judge. */
  readonly execution: number;
  readonly result: boolean;
}

type SessionState = 'live' | 'expired' | 'deleted' | 'lost';
type Outcome = 'pending' | 'result' | 'reset' | 'refused' | 'gone';

/** The client no longer waits: it got the result, a reset, or a 404 for its session (a refusal settles nothing). */
function settled(outcome: Outcome): boolean {
  return outcome === 'result' || outcome === 'reset' || outcome === 'gone';
}

interface Session {
  readonly id: string;
  readonly epoch: number;
  state: SessionState;
  readonly calls: Call[];
  notifications: number;
  notifiedInLiveness: boolean;
}

interface Cursor {
  readonly eventId: string;
  readonly stream: Stream;
  /** Position of the last own message received on its connection up to this event. */
  readonly k: number;
}

interface Stream {
  readonly client: number;
  readonly session: Session;
  readonly call: Call | null;
  readonly received: Cursor[];
  /** The last cursor received before the result, once the result arrived. */
  beforeResult: Cursor | null;
  connection: number;
  outcome: Outcome;
  /** Ground truth: the call's own execution produced its result; or the session ended first. */
  completed: boolean;
  healed: number;
}

interface Call {
  readonly id: string;
  readonly client: number;
  readonly session: Session;
  readonly requestId: number;
  readonly tool: ToolName;
  readonly body: JsonRpcMessage;
  readonly stream: Stream;
}

type Purpose = 'initialize' | 'initialized' | 'call' | 'resend' | 'resume' | 'standalone' | 'delete' | 'headerless';

interface Connection {
  readonly index: number;
  readonly client: number;
  readonly purpose: Purpose;
  readonly epoch: number;
  readonly session: Session | null;
  /** The stream the client reads from it; null when it expects none of its own there. */
  readonly stream: Stream | null;
  readonly cursor: Cursor | null;
  attached: boolean;
  kExpected: number | null;
  kLast: number;
  resetSeen: boolean;
}

interface Client {
  readonly index: number;
  state: 'idle' | 'live' | 'dead';
  session: Session | null;
  requestIdNext: number;
  readonly restartsIds: boolean;
  cursorLatest: Cursor | null;
  cursorPreRestart: Cursor | null;
  standalone: Stream | null;
  completed: Stream | null;
  readonly streams: Stream[];
}

interface Execution {
  readonly callId: string;
  readonly call: Call | null;
  readonly sessionId: string;
  readonly epoch: number;
  readonly progressSteps: number;
  /** 1 for the first execution of its call, 2 for the next, ... */
  readonly ordinal: number;
  k: number;
  running: boolean;
}

/** The first property violation seen, as data. */
export interface FcViolation {
  readonly property: PropertyName;
  readonly explanation: string;
}

/** The model (what the test knows) and the real system (the target's instance) of one run, in one value. */
export interface FcWorld {
  readonly config: FcConfig;
  readonly run: TargetRun;
  server: ServerInstance;
  readonly host: TargetHost;
  epoch: number;
  restarts: number;
  readonly clients: Client[];
  readonly sessions: Session[];
  readonly calls: Map<string, Call>;
  readonly streams: Stream[];
  readonly connections: Connection[];
  readonly executions: Execution[];
  readonly appends: Map<string, number>;
  readonly inbox: ({ kind: 'frame'; connection: number; frame: Frame } | { kind: 'end'; connection: number })[];
  readonly tags: WeakMap<object, Tag>;
  /** Who each event ID was first delivered to: its session and stream (a call ID, or 'standalone'). */
  readonly eventOwners: Map<string, { readonly session: Session | null; readonly stream: string }>;
  violation: FcViolation | null;
  healRound: number;
  /** Commands that ran (their precondition held), the length of the run as fast-check executes it. */
  commandsRan: number;
}

class ViolationError extends Error {
  constructor(readonly violation: FcViolation) {
    super(`${violation.property}: ${violation.explanation}`);
  }
}

function fail(world: FcWorld, property: PropertyName, explanation: string): void {
  world.violation ??= { property, explanation };
}

function tagOf(world: FcWorld, message: JsonRpcMessage | null): Tag | null {
  if (message === null) return null;
  const direct = world.tags.get(message);
  if (direct !== undefined) return direct;
  const result = message['result'];
  return typeof result === 'object' && result !== null ? (world.tags.get(result) ?? null) : null;
}

function createHost(world: FcWorld): TargetHost {
  return {
    frame: (connection, frame) => {
      world.inbox.push({ kind: 'frame', connection, frame });
    },
    end: (connection) => {
      world.inbox.push({ kind: 'end', connection });
    },
    // The baseline models no cancelling era: nothing of the 2025 revisions it drives cancels an execution.
    cancelled: () => undefined,
    startExecution: (start) => {
      const call = world.calls.get(start.callId) ?? null;
      const progressSteps = start.tool === 'work' ? world.config.workProgressSteps : 0;
      const ordinal = world.executions.filter((execution) => execution.callId === start.callId).length + 1;
      world.executions.push({ callId: start.callId, call, sessionId: start.sessionId, epoch: world.epoch, progressSteps, ordinal, k: 0, running: true });
      if (start.tool === 'append') {
        const count = (world.appends.get(start.callId) ?? 0) + 1;
        world.appends.set(start.callId, count);
        if (count > 1) fail(world, 'exactly-once-execution', `append ${start.callId} executed ${count} times`);
      }
      return world.executions.length - 1;
    },
    nextStep: (index) => {
      const execution = world.executions[index]!;
      execution.k += 1;
      const tag: Tag = { epoch: execution.epoch, sessionId: execution.sessionId, callId: execution.callId, k: execution.k, execution: execution.ordinal, result: execution.k > execution.progressSteps };
      if (!tag.result) {
        const message: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: execution.callId, progress: execution.k } };
        world.tags.set(message, tag);
        return { kind: 'notification', message };
      }
      execution.running = false;
      const call = execution.call;
      if (call !== null && call.session.id === execution.sessionId && call.session.epoch === execution.epoch) call.stream.completed = true;
      const result = { content: [{ type: 'text', text: `result of ${execution.callId}` }] };
      world.tags.set(result, tag);
      return { kind: 'result', result };
    },
    random: (() => {
      const prng = createPrng('fc-commands/server');
      return () => prng.float();
    })(),
  };
}

/** A fresh world: the target opened, its first incarnation booted. */
export function createFcWorld(target: Target, config: FcConfig): FcWorld {
  const run = target.open({ windowEventsMax: config.windowEventsMax, seed: 'fc-commands' });
  if (run instanceof Promise || !run.sync) throw new Error(`fc-commands baseline: target ${target.name} is not synchronous`);
  const clients: Client[] = [];
  for (let index = 0; index < config.clients; index += 1) {
    clients.push({ index, state: 'idle', session: null, requestIdNext: 1, restartsIds: index % 2 === 0, cursorLatest: null, cursorPreRestart: null, standalone: null, completed: null, streams: [] });
  }
  const world = {
    config,
    run,
    server: undefined as unknown as ServerInstance,
    host: undefined as unknown as TargetHost,
    epoch: 1,
    restarts: 0,
    clients,
    sessions: [],
    calls: new Map(),
    streams: [],
    connections: [],
    executions: [],
    appends: new Map(),
    inbox: [],
    tags: new WeakMap(),
    eventOwners: new Map(),
    violation: null,
    healRound: 0,
    commandsRan: 0,
  } as FcWorld & { host: TargetHost };
  world.host = createHost(world);
  world.server = run.boot({ epoch: 1 }, world.host);
  return world;
}

// ---- The host's side of a request: sending, the response, the frames ----

function ownCallId(connection: Connection): string | null | undefined {
  if (connection.stream === null) return undefined;
  return connection.stream.call === null ? null : connection.stream.call.id;
}

function receiveFrame(world: FcWorld, connection: Connection, frame: Frame): void {
  if (!connection.attached) return;
  const stream = connection.stream;
  if (frame.event === 'reset') {
    connection.resetSeen = true;
    if (stream !== null && !settled(stream.outcome)) stream.outcome = 'reset';
    return;
  }
  const tag = tagOf(world, frame.data);
  if (tag !== null) {
    const session = connection.session;
    if (session === null || session.id !== tag.sessionId) fail(world, 'no-cross-session-delivery', `a message of session ${tag.sessionId} arrived on connection ${connection.index}`);
    if (session !== null && session.epoch !== tag.epoch) fail(world, 'no-cross-epoch-replay', `a message of epoch ${tag.epoch} arrived in session ${session.id} of epoch ${session.epoch}`);
    const own = ownCallId(connection);
    if (own !== undefined && own !== tag.callId) fail(world, 'no-cross-stream-replay', `a message of ${tag.callId ?? 'a standalone stream'} arrived on the stream of ${own ?? 'a standalone stream'}`);
    if (tag.result && session !== null) {
      const answered = session.calls.find((call) => call.requestId === frame.data?.['id']);
      if (answered !== undefined && answered.id !== tag.callId) fail(world, 'result-to-its-request', `the result of ${tag.callId} answered request ${answered.requestId} of ${answered.id}`);
    }
    // Positions, as the engine judges them: those of a call's first execution only.
    if (own === tag.callId && tag.execution === 1) {
      if (connection.cursor !== null && tag.k <= connection.cursor.k) fail(world, 'no-redelivery', `position ${tag.k} delivered again after a cursor at ${connection.cursor.k}`);
      if (tag.k <= connection.kLast) fail(world, 'in-order-per-stream', `position ${tag.k} arrived after ${connection.kLast}`);
      if (connection.kExpected !== null && !connection.resetSeen && tag.k > connection.kExpected) fail(world, 'no-silent-gap', `position ${tag.k} arrived where ${connection.kExpected} was due`);
      connection.kLast = Math.max(connection.kLast, tag.k);
      connection.kExpected = tag.k + 1;
    }
    if (own === tag.callId) {
      if (tag.result && stream !== null && !settled(stream.outcome)) {
        stream.outcome = 'result';
        for (let index = stream.received.length - 1; index >= 0 && stream.beforeResult === null; index -= 1) {
          if (stream.received[index]!.k < tag.k) stream.beforeResult = stream.received[index]!;
        }
        if (stream.beforeResult !== null) world.clients[connection.client]!.completed = stream;
      }
    }
  }
  if (frame.eventId !== null && stream !== null) {
    // An event ID names one event of one stream of one session: seen again elsewhere, it was replayed across.
    const own = { session: connection.session, stream: stream.call === null ? 'standalone' : stream.call.id };
    const owner = world.eventOwners.get(frame.eventId);
    if (owner === undefined) world.eventOwners.set(frame.eventId, own);
    else if (owner.session !== own.session) fail(world, 'no-cross-session-delivery', `event ${frame.eventId} of session ${owner.session?.id ?? '(none)'} arrived in session ${own.session?.id ?? '(none)'}`);
    else if (owner.stream !== own.stream) fail(world, 'no-cross-stream-replay', `event ${frame.eventId} of ${owner.stream} arrived on the stream of ${own.stream}`);
    const cursor: Cursor = { eventId: frame.eventId, stream, k: connection.kLast };
    stream.received.push(cursor);
    world.clients[connection.client]!.cursorLatest = cursor;
  }
}

function endConnection(world: FcWorld, connection: Connection): void {
  if (!connection.attached) return;
  connection.attached = false;
  const stream = connection.stream;
  if (stream === null || stream.connection !== connection.index) return;
  stream.connection = -1;
  if (stream.call !== null && !settled(stream.outcome) && stream.completed && !connection.resetSeen && stream.session.state === 'live') {
    fail(world, 'no-silent-gap', `connection ${connection.index} of ${stream.call.id} ended without its result and without a reset`);
  }
}

function drainInbox(world: FcWorld): void {
  for (let index = 0; index < world.inbox.length; index += 1) {
    const item = world.inbox[index]!;
    const connection = world.connections[item.connection]!;
    if (item.kind === 'frame') receiveFrame(world, connection, item.frame);
    else endConnection(world, connection);
  }
  world.inbox.length = 0;
}

function openConnection(world: FcWorld, client: Client, purpose: Purpose, fields: { session: Session | null; stream: Stream | null; cursor: Cursor | null; kExpected: number | null }): Connection {
  const connection: Connection = {
    index: world.connections.length,
    client: client.index,
    purpose,
    epoch: world.epoch,
    session: fields.session,
    stream: fields.stream,
    cursor: fields.cursor,
    attached: false,
    kExpected: fields.kExpected,
    kLast: fields.cursor === null ? 0 : fields.cursor.k,
    resetSeen: false,
  };
  world.connections.push(connection);
  return connection;
}

function endSessionTruth(world: FcWorld, session: Session, state: SessionState): void {
  session.state = state;
}

function abandonSession(world: FcWorld, session: Session): void {
  for (const stream of world.streams) if (stream.session === session && !settled(stream.outcome)) stream.outcome = 'gone';
}

/** Sends one request and records the response (with the status-code check); the frames wait in the inbox. */
function send(world: FcWorld, connection: Connection, request: HttpRequest): HttpResponse {
  const response = world.server.handle(request) as HttpResponse;
  if (connection.session === null) {
    if (connection.purpose !== 'initialize' && response.status !== 400) fail(world, 'status-codes', `a ${connection.purpose} without Mcp-Session-Id got ${response.status}, expected 400`);
  } else if (connection.session.state !== 'live' && response.status !== 404) {
    fail(world, 'status-codes', `session ${connection.session.id} is ${connection.session.state}, yet a ${connection.purpose} got ${response.status}, expected 404`);
  }
  connection.attached = response.streaming;
  const client = world.clients[connection.client]!;
  if (response.status === 404 && connection.session !== null && client.session === connection.session && client.state === 'live') {
    client.state = 'dead';
    abandonSession(world, connection.session);
  }
  const stream = connection.stream;
  if (connection.purpose === 'standalone' && stream !== null) {
    if (response.streaming && response.status === 200) {
      if (client.standalone !== null && client.standalone.outcome === 'pending') client.standalone.outcome = 'reset';
      client.standalone = stream;
      stream.connection = connection.index;
    } else {
      stream.outcome = 'refused';
    }
  } else if (stream !== null) {
    if (response.streaming && response.status === 200) stream.connection = connection.index;
    else if (!settled(stream.outcome) && response.status !== 404) stream.outcome = 'refused';
  }
  // The frames that came with the response are handled by the caller once it has recorded what the response
  // means (a 200 to a DELETE ends the session first), as the engine does.
  return response;
}

function afterOperation(world: FcWorld): void {
  drainInbox(world);
  if (world.violation !== null) throw new ViolationError(world.violation);
}

function resumeWith(world: FcWorld, client: Client, stream: Stream | null, cursor: Cursor | null, lastEventId: string): void {
  const kExpected = cursor === null || (stream !== null && stream.call === null && cursor.k === 0) ? null : cursor.k + 1;
  const connection = openConnection(world, client, 'resume', { session: client.session, stream, cursor, kExpected });
  send(world, connection, { method: 'GET', connection: connection.index, sessionId: client.session!.id, lastEventId });
}

function forge(eventId: string): string {
  const match = /(\d+)(?!.*\d)/.exec(eventId);
  if (match === null) return `${eventId}9`;
  return eventId.slice(0, match.index) + String(Number(match[1]) + 1000) + eventId.slice(match.index + match[1]!.length);
}

function isResumable(client: Client, stream: Stream): boolean {
  if (stream.session !== client.session || stream.connection >= 0 || stream.received.length === 0) return false;
  return stream.call === null ? client.standalone === stream && stream.outcome === 'pending' : !settled(stream.outcome);
}

function live(world: FcWorld, client: number): Client | null {
  const found = world.clients[client];
  return found !== undefined && found.state === 'live' ? found : null;
}

function pick<T>(items: readonly T[], index: number): T {
  return items[index % items.length]!;
}

// ---- The steps, each a plain function of the world and its parameters ----

function initialize(world: FcWorld, index: number): void {
  const client = world.clients[index]!;
  client.state = 'idle';
  if (client.restartsIds) client.requestIdNext = 1;
  const requestId = client.requestIdNext++;
  const connection = openConnection(world, client, 'initialize', { session: null, stream: null, cursor: null, kExpected: null });
  const body: JsonRpcMessage = { jsonrpc: '2.0', id: requestId, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fc-commands', version: '0.1.0' } } };
  const response = send(world, connection, { method: 'POST', connection: connection.index, sessionId: null, lastEventId: null, body });
  if (response.status !== 200 || response.sessionId === null) return;
  const session: Session = { id: response.sessionId, epoch: world.epoch, state: 'live', calls: [], notifications: 0, notifiedInLiveness: false };
  world.sessions.push(session);
  client.state = 'live';
  client.session = session;
  client.standalone = null;
  client.completed = null;
  const follow = openConnection(world, client, 'initialized', { session, stream: null, cursor: null, kExpected: null });
  send(world, follow, { method: 'POST', connection: follow.index, sessionId: session.id, lastEventId: null, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
}

function call(world: FcWorld, client: Client, tool: ToolName, options: { stale: boolean }): void {
  const session = client.session!;
  const requestId = client.requestIdNext++;
  const id = `c${world.calls.size + 1}`;
  const body: JsonRpcMessage = { jsonrpc: '2.0', id: requestId, method: 'tools/call', params: { name: tool, arguments: { callId: id }, _meta: { progressToken: id } } };
  const stream: Stream = { client: client.index, session, call: null, received: [], beforeResult: null, connection: -1, outcome: 'pending', completed: false, healed: 0 };
  const created: Call = { id, client: client.index, session, requestId, tool, body, stream };
  (stream as { call: Call | null }).call = created;
  world.calls.set(id, created);
  session.calls.push(created);
  world.streams.push(stream);
  client.streams.push(stream);
  const lastEventId = options.stale ? client.cursorLatest!.eventId : null;
  const connection = openConnection(world, client, 'call', { session, stream, cursor: null, kExpected: 1 });
  send(world, connection, { method: 'POST', connection: connection.index, sessionId: session.id, lastEventId, body });
}

function resend(world: FcWorld, target: Call): void {
  const client = world.clients[target.client]!;
  const connection = openConnection(world, client, 'resend', { session: target.session, stream: target.stream, cursor: null, kExpected: null });
  send(world, connection, { method: 'POST', connection: connection.index, sessionId: target.session.id, lastEventId: null, body: target.body });
}

function cut(world: FcWorld, connection: Connection): void {
  connection.attached = false;
  if (connection.stream !== null && connection.stream.connection === connection.index) connection.stream.connection = -1;
  world.server.cut(connection.index);
}

function restart(world: FcWorld): void {
  world.restarts += 1;
  world.epoch += 1;
  for (const session of world.sessions) if (session.state === 'live') endSessionTruth(world, session, 'lost');
  for (const connection of world.connections) {
    if (!connection.attached) continue;
    connection.attached = false;
    if (connection.stream !== null) connection.stream.connection = -1;
  }
  for (const execution of world.executions) execution.running = false;
  for (const client of world.clients) if (client.cursorLatest !== null) client.cursorPreRestart = client.cursorLatest;
  world.server.dispose();
  world.inbox.length = 0;
  world.server = world.run.boot({ epoch: world.epoch }, world.host);
}

function notify(world: FcWorld, session: Session): void {
  session.notifications += 1;
  const tag: Tag = { epoch: world.epoch, sessionId: session.id, callId: null, k: session.notifications, execution: 1, result: false };
  const message: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `notification ${tag.k}` } };
  world.tags.set(message, tag);
  world.server.notify(session.id, message);
}

/** The enabled candidates the commands pick from. */
function attachedConnections(world: FcWorld): Connection[] {
  return world.connections.filter((connection) => connection.attached);
}

function runningExecutions(world: FcWorld): number[] {
  const indices: number[] = [];
  world.executions.forEach((execution, index) => {
    if (execution.running) indices.push(index);
  });
  return indices;
}

function resendable(world: FcWorld): Call[] {
  const calls: Call[] = [];
  for (const client of world.clients) {
    if (client.state !== 'live') continue;
    for (const candidate of client.session!.calls) if (candidate.stream.connection < 0) calls.push(candidate);
  }
  return calls;
}

function resumable(world: FcWorld): Stream[] {
  const streams: Stream[] = [];
  for (const client of world.clients) {
    if (client.state !== 'live') continue;
    for (const stream of client.streams) if (isResumable(client, stream)) streams.push(stream);
  }
  return streams;
}

// ---- fast-check commands: check() is the precondition on the model, run() one step ----

type Model = { world: FcWorld };
type Real = Record<string, never>;
type Step = fc.Command<Model, Real>;

/**
 * The baseline's commands, in the order commandArbitraries makes them, and the engine's action kinds (sim/config.ts)
 * each stands for. A test (bench/baselines.test.ts) holds this table against the commands themselves, so the count
 * the bench prints cannot drift from the code.
 */
export const FC_COMMANDS: ReadonlyArray<readonly [command: string, kinds: readonly ActionKind[]]> = [
  ['Initialize', ['initialize']],
  ['Call', ['call']],
  ['CallStale', ['callStale']],
  ['Cut', ['cut']],
  ['Resume', ['resumeLatest', 'resumeEarlier']],
  ['ResumeCompleted', ['resumeCompleted']],
  ['ForeignResume', ['resumeForeign']],
  ['PreRestartResume', ['resumePreRestart']],
  ['ForgedResume', ['resumeForged']],
  ['MalformedResume', ['resumeMalformed']],
  ['OpenStandalone', ['openStandalone']],
  ['ResendPost', ['resend']],
  ['Delete', ['delete']],
  ['Headerless', ['headerless']],
  ['Advance', ['advance']],
  ['Notify', ['notify']],
  ['ServerClose', ['serverClose']],
  ['Restart', ['restart']],
  ['Expire', ['expire']],
];

/** The engine's action kinds the baseline covers. */
export const FC_ENGINE_KINDS: readonly ActionKind[] = FC_COMMANDS.flatMap(([, kinds]) => kinds);

function command(name: string, check: (world: FcWorld) => boolean, run: (world: FcWorld) => void): Step {
  return {
    check: (model) => model.world.violation === null && check(model.world),
    run: (model) => {
      model.world.commandsRan += 1;
      run(model.world);
      afterOperation(model.world);
    },
    toString: () => name,
  };
}

/** The command arbitraries: one per kind of step, its parameters drawn by fast-check. */
export function commandArbitraries(config: FcConfig): fc.Arbitrary<Step>[] {
  const client = fc.nat({ max: config.clients - 1 });
  const index = fc.nat({ max: 63 });
  const tool = fc.constantFrom(...TOOL_NAMES);
  return [
    client.map((c) => command(`Initialize(${c})`, (world) => world.clients[c]!.state !== 'live', (world) => initialize(world, c))),
    fc.tuple(client, tool).map(([c, t]) =>
      command(`Call(${c}, ${t})`, (world) => live(world, c) !== null && live(world, c)!.session!.calls.length < config.callsPerSessionMax, (world) => call(world, live(world, c)!, t, { stale: false })),
    ),
    fc.tuple(client, tool).map(([c, t]) =>
      command(
        `CallStale(${c}, ${t})`,
        (world) => live(world, c) !== null && live(world, c)!.cursorLatest !== null && live(world, c)!.session!.calls.length < config.callsPerSessionMax,
        (world) => call(world, live(world, c)!, t, { stale: true }),
      ),
    ),
    index.map((i) => command(`Cut(${i})`, (world) => attachedConnections(world).length > 0, (world) => cut(world, pick(attachedConnections(world), i)))),
    fc.tuple(index, fc.constantFrom('latest', 'earlier')).map(([i, which]) =>
      command(
        `Resume(${i}, ${which})`,
        (world) => resumable(world).some((stream) => which === 'latest' || stream.received.length >= 2),
        (world) => {
          const streams = resumable(world).filter((stream) => which === 'latest' || stream.received.length >= 2);
          const stream = pick(streams, i);
          const cursor = which === 'latest' ? stream.received[stream.received.length - 1]! : stream.received[0]!;
          resumeWith(world, world.clients[stream.client]!, stream, cursor, cursor.eventId);
        },
      ),
    ),
    client.map((c) =>
      command(
        `ResumeCompleted(${c})`,
        (world) => {
          const found = live(world, c);
          return found !== null && found.completed !== null && found.completed.session === found.session && found.completed.connection < 0;
        },
        (world) => {
          const found = live(world, c)!;
          const stream = found.completed!;
          const cursor = stream.beforeResult!;
          resumeWith(world, found, stream, cursor, cursor.eventId);
        },
      ),
    ),
    fc.tuple(client, client).map(([c, other]) =>
      command(
        `ForeignResume(${c}, ${other})`,
        (world) => c !== other && live(world, c) !== null && world.clients[other]!.cursorLatest !== null,
        (world) => resumeWith(world, live(world, c)!, null, null, world.clients[other]!.cursorLatest!.eventId),
      ),
    ),
    client.map((c) =>
      command(
        `PreRestartResume(${c})`,
        (world) => live(world, c) !== null && live(world, c)!.cursorPreRestart !== null,
        (world) => resumeWith(world, live(world, c)!, null, null, live(world, c)!.cursorPreRestart!.eventId),
      ),
    ),
    client.map((c) =>
      command(
        `ForgedResume(${c})`,
        (world) => live(world, c) !== null && live(world, c)!.cursorLatest !== null,
        (world) => resumeWith(world, live(world, c)!, null, null, forge(live(world, c)!.cursorLatest!.eventId)),
      ),
    ),
    client.map((c) => command(`MalformedResume(${c})`, (world) => live(world, c) !== null, (world) => resumeWith(world, live(world, c)!, null, null, 'not-an-event-id'))),
    client.map((c) =>
      command(
        `OpenStandalone(${c})`,
        (world) => live(world, c) !== null && (live(world, c)!.standalone === null || live(world, c)!.standalone!.connection < 0),
        (world) => {
          const found = live(world, c)!;
          const stream: Stream = { client: c, session: found.session!, call: null, received: [], beforeResult: null, connection: -1, outcome: 'pending', completed: false, healed: 0 };
          world.streams.push(stream);
          found.streams.push(stream);
          const connection = openConnection(world, found, 'standalone', { session: found.session, stream, cursor: null, kExpected: null });
          send(world, connection, { method: 'GET', connection: connection.index, sessionId: found.session!.id, lastEventId: null });
        },
      ),
    ),
    index.map((i) => command(`ResendPost(${i})`, (world) => resendable(world).length > 0, (world) => resend(world, pick(resendable(world), i)))),
    client.map((c) =>
      command(`Delete(${c})`, (world) => live(world, c) !== null, (world) => {
        const found = live(world, c)!;
        const session = found.session!;
        const connection = openConnection(world, found, 'delete', { session, stream: null, cursor: null, kExpected: null });
        const response = send(world, connection, { method: 'DELETE', connection: connection.index, sessionId: session.id });
        if (response.status === 200) {
          if (session.state === 'live') endSessionTruth(world, session, 'deleted');
          if (found.session === session && found.state === 'live') {
            found.state = 'idle';
            abandonSession(world, session);
          }
        }
      }),
    ),
    client.map((c) =>
      command(`Headerless(${c})`, (world) => live(world, c) !== null, (world) => {
        const connection = openConnection(world, live(world, c)!, 'headerless', { session: null, stream: null, cursor: null, kExpected: null });
        send(world, connection, { method: 'GET', connection: connection.index, sessionId: null, lastEventId: null });
      }),
    ),
    index.map((i) =>
      command(`Advance(${i})`, (world) => runningExecutions(world).length > 0, (world) => {
        world.server.advance(pick(runningExecutions(world), i));
      }),
    ),
    client.map((c) =>
      command(
        `Notify(${c})`,
        (world) => live(world, c) !== null && live(world, c)!.session!.state === 'live' && live(world, c)!.standalone !== null,
        (world) => notify(world, live(world, c)!.session!),
      ),
    ),
    index.map((i) =>
      command(`ServerClose(${i})`, (world) => attachedConnections(world).some((connection) => connection.stream !== null), (world) => {
        const connection = pick(
          attachedConnections(world).filter((candidate) => candidate.stream !== null),
          i,
        );
        connection.attached = false;
        if (connection.stream !== null && connection.stream.connection === connection.index) connection.stream.connection = -1;
        world.server.closeConnection(connection.index, 1000);
      }),
    ),
    fc.constant(command('Restart', (world) => world.restarts < config.restartsMax, (world) => restart(world))),
    client.map((c) =>
      command(`Expire(${c})`, (world) => live(world, c) !== null && live(world, c)!.session!.state === 'live', (world) => {
        const session = live(world, c)!.session!;
        endSessionTruth(world, session, 'expired');
        world.server.expire(session.id);
      }),
    ),
  ];
}

/** The liveness phase, then the final checks: as the engine's, so liveness properties can be judged. */
export function healAndFinish(world: FcWorld): void {
  for (world.healRound = 1; world.healRound <= HEAL_ROUNDS_MAX && world.violation === null; world.healRound += 1) {
    let acted = false;
    for (;;) {
      const running = runningExecutions(world);
      if (running.length > 0) {
        world.server.advance(running[0]!);
        drainInbox(world);
        acted = true;
        continue;
      }
      const waiting = world.streams.find((stream) => {
        const client = world.clients[stream.client]!;
        return client.state === 'live' && stream.session === client.session && stream.call !== null && !settled(stream.outcome) && stream.connection < 0 && stream.healed !== world.healRound;
      });
      if (world.violation !== null) break;
      if (waiting === undefined) {
        // Once calls have settled, each live session with a standalone stream gets one notification, as in the
        // engine: a connection that joined another session's stream shows itself by receiving it.
        const quiet = world.clients.find((client) => client.state === 'live' && client.standalone !== null && client.session!.state === 'live' && !client.session!.notifiedInLiveness);
        if (quiet === undefined) break;
        quiet.session!.notifiedInLiveness = true;
        notify(world, quiet.session!);
        drainInbox(world);
        acted = true;
        continue;
      }
      waiting.healed = world.healRound;
      const client = world.clients[waiting.client]!;
      if (waiting.received.length > 0) {
        const cursor = waiting.received[waiting.received.length - 1]!;
        resumeWith(world, client, waiting, cursor, cursor.eventId);
      } else {
        resend(world, waiting.call!);
      }
      drainInbox(world);
      acted = true;
    }
    if (!acted) break;
  }
  if (world.violation !== null) throw new ViolationError(world.violation);
  for (const stream of world.streams) {
    if (stream.call !== null && !settled(stream.outcome)) fail(world, 'no-lost-result', `${stream.call.id} never got its result nor a reset`);
  }
  for (const connection of world.connections) {
    if (!connection.attached || connection.epoch !== world.epoch) continue;
    if (connection.stream === null) fail(world, 'no-hang', `connection ${connection.index} (${connection.purpose}) stays open with no stream of the client's`);
    else if (connection.stream.call !== null && settled(connection.stream.outcome)) fail(world, 'no-hang', `connection ${connection.index} stays open after the client got its ${connection.stream.outcome}`);
  }
  if (world.violation !== null) throw new ViolationError(world.violation);
}

/** One search of the baseline: fast-check's own loop, timed to the first failure and through its shrinking. */
export interface FcSearch {
  readonly seed: number;
  readonly found: boolean;
  /** Runs until the first failure (inclusive), or all runs made. */
  readonly runsToFirst: number;
  readonly msToFirst: number | null;
  readonly firstLength: number | null;
  readonly firstProperty: PropertyName | null;
  /** The shrunk counterexample: commands that ran, and the property it violates. */
  readonly shrunkLength: number | null;
  readonly shrunkProperty: PropertyName | null;
  readonly shrinkMs: number | null;
  /** Property evaluations in all (runs plus shrink attempts). */
  readonly evaluations: number;
}

/** Runs one fast-check search of `target`: `fc.commands` (default size or `size`) + `fc.modelRun`. */
export function fcSearch(target: Target, config: FcConfig, options: { seed: number; numRuns: number; timeMs: number; size?: fc.SizeForArbitrary }): FcSearch {
  const arbitraries = commandArbitraries(config);
  const commands = options.size === undefined ? fc.commands(arbitraries) : fc.commands(arbitraries, { size: options.size });
  let evaluations = 0;
  let firstAt: number | null = null;
  let firstRuns = 0;
  let firstLength: number | null = null;
  let firstProperty: PropertyName | null = null;
  let lastLength: number | null = null;
  let lastProperty: PropertyName | null = null;
  const started = nowMs();
  const property = fc.property(commands, (sequence) => {
    evaluations += 1;
    const world = createFcWorld(target, config);
    try {
      fc.modelRun(() => ({ model: { world }, real: {} }), sequence);
      healAndFinish(world);
    } catch (error) {
      if (!(error instanceof ViolationError)) throw error;
      if (firstAt === null) {
        firstAt = nowMs();
        firstRuns = evaluations;
        firstLength = world.commandsRan;
        firstProperty = error.violation.property;
      }
      lastLength = world.commandsRan;
      lastProperty = error.violation.property;
      throw error;
    } finally {
      world.run.close();
    }
  });
  const details = fc.check(property, { seed: options.seed, numRuns: options.numRuns, interruptAfterTimeLimit: options.timeMs, markInterruptAsFailure: false });
  const ended = nowMs();
  const found = firstAt !== null;
  return {
    seed: options.seed,
    found,
    runsToFirst: found ? firstRuns : details.numRuns,
    msToFirst: firstAt === null ? null : firstAt - started,
    firstLength,
    firstProperty,
    shrunkLength: details.failed ? lastLength : null,
    shrunkProperty: details.failed ? lastProperty : null,
    shrinkMs: firstAt === null ? null : ended - firstAt,
    evaluations,
  };
}

// A bare, hand-written simulator loop over a smaller world of the same kind as the engine's (clients,
// sessions, calls with their streams and windowed event buffers, cursors, cuts, resumes, re-sends, restarts,
// expiry), with an enabled-set computation, the same PRNG (sim/prng.ts) and walk shape, and a trace buffer.
// It is a smaller problem, not the same work: the engine's action kinds listed in BARE_ENGINE_KINDS (the bench prints
// how many of the engine's they are, from that list), no HTTP requests, no message bodies, no decision core (no target
// at all), no model tables, no monitors, no property checked, no allocation in the step loop. The bench prints it as
// such: a bound on what walking a world costs, not a competitor.

import type { ActionKind } from '../sim/config.ts';
import { createPrng } from '../sim/prng.ts';

/** Bounds of the bare world, sized like the engine's defaults (2 clients, 3 calls a session, 2 restarts). */
const CLIENTS = 2;
const CALLS_PER_SESSION_MAX = 3;
const RESTARTS_MAX = 2;
const WORK_PROGRESS_STEPS = 2;
const WINDOW_EVENTS_MAX = 2;
const SESSIONS_MAX = 64;
const STREAMS_MAX = 256;
const ACTIONS_MAX = 256;
const TRACE_MAX = 1 << 16;
/** Liveness rounds at the most, as in the engine. */
const HEAL_ROUNDS_MAX = 6;

// Action kinds of the bare world.
const INITIALIZE = 0;
const CALL = 1;
const CUT = 2;
const RESUME_LATEST = 3;
const RESUME_EARLIER = 4;
const RESUME_FOREIGN = 5;
const RESEND = 6;
const ADVANCE = 7;
const RESTART = 8;
const EXPIRE = 9;
const DELETE = 10;
const KINDS = 11;

/** The engine's action kinds (sim/config.ts) the bare world's kinds stand for, in the order of its kind numbers. */
export const BARE_ENGINE_KINDS: readonly ActionKind[] = ['initialize', 'call', 'cut', 'resumeLatest', 'resumeEarlier', 'resumeForeign', 'resend', 'advance', 'restart', 'expire', 'delete'];
/** The bare world's number of kinds (bench/baselines.test.ts holds it against BARE_ENGINE_KINDS). */
export const BARE_KIND_COUNT = KINDS;

// Client states.
const IDLE = 0;
const LIVE = 1;
const DEAD = 2;

// Stream states.
const OPEN = 0;
const COMPLETED = 1;
const ABORTED = 2;

/** The whole bare world: struct-of-arrays, allocated once and reset per run. */
interface BareWorld {
  // Clients.
  readonly clientState: Int32Array;
  readonly clientSession: Int32Array;
  readonly clientRequestIdNext: Int32Array;
  /** Latest cursor of each client: (stream, seq) packed as stream * 65536 + seq, or -1. */
  readonly clientCursor: Int32Array;
  // Sessions.
  sessions: number;
  readonly sessionEpoch: Int32Array;
  readonly sessionLive: Uint8Array;
  readonly sessionCalls: Int32Array;
  /** The streams of each session: `sessionStreams[session * CALLS_PER_SESSION_MAX + i]`. */
  readonly sessionStreams: Int32Array;
  // Streams (one per call); the server's buffer and the client's view side by side.
  streams: number;
  readonly streamSession: Int32Array;
  readonly streamClient: Int32Array;
  readonly streamRequestId: Int32Array;
  readonly streamProgressSteps: Int32Array;
  readonly streamState: Int32Array;
  /** Messages the execution produced so far (its position k). */
  readonly streamK: Int32Array;
  /** Sequence number of the last event stored, and of the first one still retained (the window). */
  readonly streamSeqLast: Int32Array;
  readonly streamSeqFirstRetained: Int32Array;
  /** Executions started for the stream's request (more than one for an append is the double-execution bug). */
  readonly streamExecutions: Int32Array;
  readonly streamRunning: Uint8Array;
  /** The connection attached (1) or not (0); connections are not reused, so a flag and a counter suffice. */
  readonly streamAttached: Uint8Array;
  /** The client side: last seq received, and the seq received before it (the "earlier" cursor). */
  readonly streamSeqReceived: Int32Array;
  readonly streamSeqEarlier: Int32Array;
  readonly streamOutcomePending: Uint8Array;
  connections: number;
  /** The streams with a connection attached, and those with a running execution, as unordered sets. */
  readonly attachedList: Int32Array;
  attachedCount: number;
  readonly runningList: Int32Array;
  runningCount: number;
  // Server.
  epoch: number;
  restarts: number;
  // Enabled actions of the current step.
  count: number;
  readonly kind: Int32Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  // The trace buffer: every step's (kind, a, b), and the delivered events count.
  traceLength: number;
  readonly trace: Int32Array;
  delivered: number;
}

function createBareWorld(): BareWorld {
  return {
    clientState: new Int32Array(CLIENTS),
    clientSession: new Int32Array(CLIENTS),
    clientRequestIdNext: new Int32Array(CLIENTS),
    clientCursor: new Int32Array(CLIENTS),
    sessions: 0,
    sessionEpoch: new Int32Array(SESSIONS_MAX),
    sessionLive: new Uint8Array(SESSIONS_MAX),
    sessionCalls: new Int32Array(SESSIONS_MAX),
    sessionStreams: new Int32Array(SESSIONS_MAX * CALLS_PER_SESSION_MAX),
    streams: 0,
    streamSession: new Int32Array(STREAMS_MAX),
    streamClient: new Int32Array(STREAMS_MAX),
    streamRequestId: new Int32Array(STREAMS_MAX),
    streamProgressSteps: new Int32Array(STREAMS_MAX),
    streamState: new Int32Array(STREAMS_MAX),
    streamK: new Int32Array(STREAMS_MAX),
    streamSeqLast: new Int32Array(STREAMS_MAX),
    streamSeqFirstRetained: new Int32Array(STREAMS_MAX),
    streamExecutions: new Int32Array(STREAMS_MAX),
    streamRunning: new Uint8Array(STREAMS_MAX),
    streamAttached: new Uint8Array(STREAMS_MAX),
    streamSeqReceived: new Int32Array(STREAMS_MAX),
    streamSeqEarlier: new Int32Array(STREAMS_MAX),
    streamOutcomePending: new Uint8Array(STREAMS_MAX),
    connections: 0,
    attachedList: new Int32Array(STREAMS_MAX),
    attachedCount: 0,
    runningList: new Int32Array(STREAMS_MAX),
    runningCount: 0,
    epoch: 1,
    restarts: 0,
    count: 0,
    kind: new Int32Array(ACTIONS_MAX),
    a: new Int32Array(ACTIONS_MAX),
    b: new Int32Array(ACTIONS_MAX),
    traceLength: 0,
    trace: new Int32Array(TRACE_MAX * 3),
    delivered: 0,
  };
}

function resetBareWorld(world: BareWorld): void {
  for (let client = 0; client < CLIENTS; client += 1) {
    world.clientState[client] = IDLE;
    world.clientSession[client] = -1;
    world.clientRequestIdNext[client] = 1;
    world.clientCursor[client] = -1;
  }
  world.sessions = 0;
  world.streams = 0;
  world.connections = 0;
  world.attachedCount = 0;
  world.runningCount = 0;
  world.epoch = 1;
  world.restarts = 0;
  world.traceLength = 0;
  world.delivered = 0;
}

function push(world: BareWorld, kind: number, a: number, b: number): void {
  const index = world.count;
  world.kind[index] = kind;
  world.a[index] = a;
  world.b[index] = b;
  world.count = index + 1;
}

/** The enabled set of the fault phase, in a canonical order. */
function enumerate(world: BareWorld): void {
  world.count = 0;
  for (let client = 0; client < CLIENTS; client += 1) {
    const state = world.clientState[client]!;
    if (state !== LIVE) {
      if (world.sessions < SESSIONS_MAX) push(world, INITIALIZE, client, 0);
      continue;
    }
    const session = world.clientSession[client]!;
    if (world.sessionCalls[session]! < CALLS_PER_SESSION_MAX && world.streams < STREAMS_MAX) {
      for (let tool = 0; tool < 3; tool += 1) push(world, CALL, client, tool);
    }
    const calls = world.sessionCalls[session]!;
    for (let call = 0; call < calls; call += 1) {
      const stream = world.sessionStreams[session * CALLS_PER_SESSION_MAX + call]!;
      if (world.streamAttached[stream] === 1) continue;
      push(world, RESEND, stream, 0);
      if (world.streamOutcomePending[stream] === 0 || world.streamSeqReceived[stream]! === 0) continue;
      push(world, RESUME_LATEST, stream, 0);
      if (world.streamSeqEarlier[stream]! > 0) push(world, RESUME_EARLIER, stream, 0);
    }
    for (let other = 0; other < CLIENTS; other += 1) {
      if (other !== client && world.clientCursor[other]! >= 0) push(world, RESUME_FOREIGN, client, other);
    }
    if (world.sessionLive[session] === 1) push(world, EXPIRE, client, 0);
    push(world, DELETE, client, 0);
  }
  for (let index = 0; index < world.attachedCount; index += 1) push(world, CUT, world.attachedList[index]!, 0);
  for (let index = 0; index < world.runningCount; index += 1) push(world, ADVANCE, world.runningList[index]!, 0);
  if (world.restarts < RESTARTS_MAX) push(world, RESTART, 0, 0);
}

/** Attaches or detaches a stream's connection, keeping the attached set in step. */
function setAttached(world: BareWorld, stream: number, attached: boolean): void {
  const was = world.streamAttached[stream] === 1;
  if (was === attached) return;
  world.streamAttached[stream] = attached ? 1 : 0;
  if (attached) {
    world.attachedList[world.attachedCount++] = stream;
    return;
  }
  for (let index = 0; index < world.attachedCount; index += 1) {
    if (world.attachedList[index] !== stream) continue;
    world.attachedList[index] = world.attachedList[--world.attachedCount]!;
    return;
  }
}

/** Starts or stops a stream's execution, keeping the running set in step. */
function setRunning(world: BareWorld, stream: number, running: boolean): void {
  const was = world.streamRunning[stream] === 1;
  if (was === running) return;
  world.streamRunning[stream] = running ? 1 : 0;
  if (running) {
    world.runningList[world.runningCount++] = stream;
    return;
  }
  for (let index = 0; index < world.runningCount; index += 1) {
    if (world.runningList[index] !== stream) continue;
    world.runningList[index] = world.runningList[--world.runningCount]!;
    return;
  }
}

/** The client receives event `seq` of `stream` (a delivery: its cursor moves). */
function deliver(world: BareWorld, stream: number, seq: number): void {
  world.streamSeqEarlier[stream] = world.streamSeqReceived[stream]!;
  world.streamSeqReceived[stream] = seq;
  world.clientCursor[world.streamClient[stream]!] = stream * 65536 + seq;
  world.delivered += 1;
}

/** The server stores the stream's next event, evicting past the window, and sends it if a connection is attached. */
function emit(world: BareWorld, stream: number): number {
  const seq = world.streamSeqLast[stream]! + 1;
  world.streamSeqLast[stream] = seq;
  const firstRetained = seq - WINDOW_EVENTS_MAX + 1;
  if (firstRetained > world.streamSeqFirstRetained[stream]!) world.streamSeqFirstRetained[stream] = firstRetained;
  if (world.streamAttached[stream] === 1) deliver(world, stream, seq);
  return seq;
}

function endSession(world: BareWorld, session: number): void {
  world.sessionLive[session] = 0;
  const calls = world.sessionCalls[session]!;
  for (let call = 0; call < calls; call += 1) {
    const stream = world.sessionStreams[session * CALLS_PER_SESSION_MAX + call]!;
    setAttached(world, stream, false);
    setRunning(world, stream, false);
    if (world.streamState[stream] === OPEN) world.streamState[stream] = ABORTED;
  }
}

/** A resume of `stream` after `seq` by `client`: the reference's decision, inlined. */
function resume(world: BareWorld, client: number, stream: number, seq: number): void {
  world.connections += 1;
  const session = world.streamSession[stream]!;
  const presenting = world.clientSession[client]!;
  if (world.sessionLive[presenting] === 0) {
    // 404: the client must start again.
    world.clientState[client] = DEAD;
    return;
  }
  if (session !== presenting || world.sessionEpoch[session] !== world.epoch) return; // 409: another session's cursor.
  if (seq + 1 < world.streamSeqFirstRetained[stream]!) {
    // Outside the window: a reset, then live.
    world.streamOutcomePending[stream] = 0;
    return;
  }
  setAttached(world, stream, world.streamState[stream] === OPEN);
  for (let next = seq + 1; next <= world.streamSeqLast[stream]!; next += 1) deliver(world, stream, next);
  if (world.streamState[stream] === COMPLETED) world.streamOutcomePending[stream] = 0;
}

/** Applies one action: the client's side, the server's reducer and the delivery, all in one. */
function apply(world: BareWorld, kind: number, a: number, b: number): void {
  switch (kind) {
    case INITIALIZE: {
      const session = world.sessions;
      world.sessions = session + 1;
      world.sessionEpoch[session] = world.epoch;
      world.sessionLive[session] = 1;
      world.sessionCalls[session] = 0;
      world.clientState[a] = LIVE;
      world.clientSession[a] = session;
      world.clientRequestIdNext[a] = 1;
      world.connections += 2;
      return;
    }
    case CALL: {
      const stream = world.streams;
      world.streams = stream + 1;
      const session = world.clientSession[a]!;
      world.sessionStreams[session * CALLS_PER_SESSION_MAX + world.sessionCalls[session]!] = stream;
      world.sessionCalls[session] = world.sessionCalls[session]! + 1;
      world.streamSession[stream] = session;
      world.streamClient[stream] = a;
      world.streamRequestId[stream] = world.clientRequestIdNext[a]!;
      world.clientRequestIdNext[a] = world.clientRequestIdNext[a]! + 1;
      world.streamProgressSteps[stream] = b === 2 ? WORK_PROGRESS_STEPS : 0;
      world.streamState[stream] = OPEN;
      world.streamK[stream] = 0;
      world.streamSeqLast[stream] = 0;
      world.streamSeqFirstRetained[stream] = 1;
      world.streamExecutions[stream] = 1;
      world.streamRunning[stream] = 0;
      world.streamAttached[stream] = 0;
      setRunning(world, stream, true);
      setAttached(world, stream, true);
      world.streamSeqReceived[stream] = 0;
      world.streamSeqEarlier[stream] = 0;
      world.streamOutcomePending[stream] = 1;
      world.connections += 1;
      emit(world, stream); // The priming event.
      return;
    }
    case CUT:
      setAttached(world, a, false);
      return;
    case RESUME_LATEST:
      resume(world, world.streamClient[a]!, a, world.streamSeqReceived[a]!);
      return;
    case RESUME_EARLIER:
      resume(world, world.streamClient[a]!, a, world.streamSeqEarlier[a]!);
      return;
    case RESUME_FOREIGN: {
      const cursor = world.clientCursor[b]!;
      resume(world, a, cursor >> 16, cursor & 0xffff);
      return;
    }
    case RESEND: {
      // The ledger knows the request: the re-sent POST attaches to the stream it already has.
      world.connections += 1;
      if (world.sessionLive[world.streamSession[a]!] === 0) {
        world.clientState[world.streamClient[a]!] = DEAD;
        return;
      }
      if (world.streamState[a] === OPEN) setAttached(world, a, true);
      return;
    }
    case ADVANCE: {
      const k = world.streamK[a]! + 1;
      world.streamK[a] = k;
      emit(world, a);
      if (k > world.streamProgressSteps[a]!) {
        setRunning(world, a, false);
        world.streamState[a] = COMPLETED;
        if (world.streamAttached[a] === 1) world.streamOutcomePending[a] = 0;
        setAttached(world, a, false);
      }
      return;
    }
    case RESTART: {
      world.restarts += 1;
      world.epoch += 1;
      for (let session = 0; session < world.sessions; session += 1) if (world.sessionLive[session] === 1) endSession(world, session);
      return;
    }
    case EXPIRE:
      endSession(world, world.clientSession[a]!);
      return;
    case DELETE: {
      const session = world.clientSession[a]!;
      world.connections += 1;
      if (world.sessionLive[session] === 1) endSession(world, session);
      world.clientState[a] = IDLE;
      return;
    }
    default:
      throw new Error(`bare loop: unknown action kind ${kind}`);
  }
}

function record(world: BareWorld, kind: number, a: number, b: number): void {
  const at = (world.traceLength % TRACE_MAX) * 3;
  world.trace[at] = kind;
  world.trace[at + 1] = a;
  world.trace[at + 2] = b;
  world.traceLength += 1;
}

/** The liveness phase's next action: finish the running work, then resume each waiting stream once a round. */
function healAction(world: BareWorld, resumed: Int32Array, round: number): boolean {
  world.count = 0;
  if (world.runningCount > 0) {
    push(world, ADVANCE, world.runningList[0]!, 0);
    return true;
  }
  for (let stream = 0; stream < world.streams; stream += 1) {
    const client = world.streamClient[stream]!;
    if (world.clientState[client] !== LIVE || world.clientSession[client] !== world.streamSession[stream]) continue;
    if (world.streamOutcomePending[stream] === 0 || world.streamAttached[stream] === 1 || resumed[stream] === round) continue;
    resumed[stream] = round;
    push(world, world.streamSeqReceived[stream]! > 0 ? RESUME_LATEST : RESEND, stream, 0);
    return true;
  }
  return false;
}

/** Kind weights of a uniform walk, read the way the engine's walk reads them. */
const KIND_WEIGHTS = new Float64Array(KINDS).fill(1);

/** A reusable bare simulator: `run(seed)` simulates one walk and returns the steps it took. */
export interface BareLoop {
  run(seed: string): number;
}

/** Makes a bare simulator for walks of at most `stepsMax` fault steps. */
export function createBareLoop(stepsMax: number): BareLoop {
  const world = createBareWorld();
  const resumed = new Int32Array(STREAMS_MAX);
  return {
    run(seed) {
      resetBareWorld(world);
      resumed.fill(0);
      // The same PRNG and the same walk shape as the engine's random walks: a per-run seed, a drawn length.
      const prng = createPrng(`${seed}/walk`);
      const length = 1 + prng.below(stepsMax);
      let steps = 0;
      for (; steps < length; steps += 1) {
        enumerate(world);
        if (world.count === 0) break;
        let total = 0;
        for (let index = 0; index < world.count; index += 1) total += KIND_WEIGHTS[world.kind[index]!]!;
        let pick = prng.float() * total;
        let choice = world.count - 1;
        for (let index = 0; index < world.count; index += 1) {
          pick -= KIND_WEIGHTS[world.kind[index]!]!;
          if (pick < 0) {
            choice = index;
            break;
          }
        }
        const kind = world.kind[choice]!;
        const a = world.a[choice]!;
        const b = world.b[choice]!;
        record(world, kind, a, b);
        apply(world, kind, a, b);
      }
      for (let round = 1; round <= HEAL_ROUNDS_MAX; round += 1) {
        let acted = false;
        while (healAction(world, resumed, round)) {
          const kind = world.kind[0]!;
          const a = world.a[0]!;
          record(world, kind, a, 0);
          apply(world, kind, a, 0);
          steps += 1;
          acted = true;
        }
        if (!acted) break;
      }
      return steps;
    },
  };
}

// The server level: the simulator's model of clients, connections, sessions and streams around a server target, the
// adapter that hands the target each step's operations (a request, a cut, a restart) and feeds what it writes back to
// the clients, the property monitors that judge what they observe, the liveness phase's actions and the final
// checks. The engine (sim/engine.ts) runs it through the one loop it runs every level through (sim/levels/level.ts);
// the client and store levels are its siblings here.

import { MODEL, accepts, step } from '../../model/index.ts';
import { PROPERTIES, PROPERTY_NAMES, type Property } from '../../properties/index.ts';
import type { Verdict } from '../../properties/property.ts';
import type { ExecutionStart, Frame, HttpResponse, JsonRpcMessage, Target, TargetHost, ToolStep } from '../../targets/target.ts';
import {
  type ActionList,
  K,
  type Op,
  changeConnection,
  continueAction,
  noteResponse,
  createActionList,
  actionRecord,
  describeAction,
  enumerateActions,
  followUp,
  hasCallToReissue,
  isReissuable,
  startAction,
} from '../actions.ts';
import { REVISIONS, type Revision, type SimConfig } from '../config.ts';
import type { CoverageObserver } from '../coverage.ts';
import { type Answer, explanationOf, signatureOf } from '../signature.ts';
import { createPrng } from '../prng.ts';
import { type Provenance, negotiatedVersion, progressStepsOf, provenanceOf, toolStep } from '../tools.ts';
import type { Arrival, EventOwner, SimConnection, SimExecution, StreamView, Violation, World } from '../world.ts';
import { createWorld, isModernClient, isSettled } from '../world.ts';
import { erasOf } from '../eras.ts';
import { EveryViolation, type ViolationKind } from '../every-violation.ts';
import { clientRevisions } from '../revisions.ts';
import type { LevelRun, LevelRunOptions, RunLevel } from './level.ts';
import type { TraceStep } from './records.ts';
import type { FrameFields } from './server-records.ts';

/**
 * The monitors a client of one revision is judged by, hook by hook, in monitor order: a property is consulted only
 * for what a client of the revisions it applies to observes (Property.revisions).
 */
interface Monitors {
  readonly arrival: readonly Property[];
  readonly eventId: readonly Property[];
  readonly frame: readonly Property[];
  readonly response: readonly Property[];
  readonly end: readonly Property[];
  readonly close: readonly Property[];
  readonly execution: readonly Property[];
  readonly toolStep: readonly Property[];
}

function monitorsOf(revision: Revision): Monitors {
  const applying = PROPERTIES.filter((property) => property.revisions.includes(revision));
  return {
    arrival: applying.filter((property) => property.onArrival !== undefined),
    eventId: applying.filter((property) => property.onEventId !== undefined),
    frame: applying.filter((property) => property.onFrame !== undefined),
    response: applying.filter((property) => property.onResponse !== undefined),
    end: applying.filter((property) => property.onEnd !== undefined),
    close: applying.filter((property) => property.onClose !== undefined),
    execution: applying.filter((property) => property.onExecution !== undefined),
    toolStep: applying.filter((property) => property.onToolStep !== undefined),
  };
}

const MONITORS: Readonly<Record<Revision, Monitors>> = Object.fromEntries(REVISIONS.map((revision) => [revision, monitorsOf(revision)])) as Record<Revision, Monitors>;

/** The monitors of what the client of `connection` observes. */
function monitorsAt(world: World, connection: SimConnection): Monitors {
  return MONITORS[world.clients[connection.client]!.revision];
}

/** The monitors of an execution: its call's client's; an execution of no known call is judged as the first client's. */
function monitorsOfExecution(world: World, execution: SimExecution): Monitors {
  return MONITORS[world.clients[execution.call === null ? 0 : execution.call.client]!.revision];
}

const FINISH_MONITORS = PROPERTIES.filter((property) => property.onFinish !== undefined);
const STEP_MONITORS = PROPERTIES.filter((property) => property.onStep !== undefined);

/**
 * The monitors among `monitors` that apply to the run: some client of it speaks a revision the property applies to
 * (a property's global hooks run only then). Chosen once per run: a client's revision is fixed when it is made.
 */
function applyingToRun(world: World, monitors: readonly Property[]): readonly Property[] {
  return monitors.filter((property) => world.clients.some((client) => property.revisions.includes(client.revision)));
}

function report(world: World, property: Property, verdict: Verdict, answer: Answer, connection: SimConnection | null = null): void {
  if (verdict === null || world.violation !== null) return;
  // A note (the revision permits it) never ends a run nor hides a violation: it is kept aside until the run is over.
  // So is a property kept aside (a warning a server may break at every stream). After the client broke a requestor's
  // rule, what that step can itself produce is charged to it: kept aside the same way, so a violation the server is
  // charged with still ends the run and is the one reported.
  const kind: ViolationKind =
    property.severity === 'note' ? 'noted' : property.keptAside !== undefined ? 'aside' : world.clientFault !== null && property.underClientFault === 'triggered' ? 'triggered' : 'ends';
  const { every } = world;
  // Nothing is made for a report no one reads: a property not checked, or (a run going on past its violations) one
  // whose report of this kind is filed already.
  if (every !== null ? !every.wants(kind, property.name) : world.checked !== null && !world.checked.has(property.name)) return;
  if (every === null && kind !== 'ends' && world[kind] !== null) return;
  const explanation = explanationOf(verdict);
  const signature = signatureOf(world.acting, answer, verdict, connection);
  const violation: Violation =
    kind === 'triggered'
      ? { property: property.name, step: world.step, explanation, signature, triggeredBy: world.clientFault! }
      : { property: property.name, step: world.step, explanation, signature };
  if (every !== null) every.file(kind, violation);
  else if (kind === 'ends') world.violation = violation;
  else world[kind] = violation;
}

/**
 * Records the run's first client step that breaks a requestor's rule: a request ID used again while its request is
 * in flight (the same request re-sent, or another call under its ID), whether its first connection is still open
 * (resendInFlight) or was cut (a proxy's re-send in the fault phase, before the call's result exists). The liveness
 * phase's own re-send of a call that never got a cursor is the simulated client's recovery, not a fault it injects.
 */
function noteClientFault(world: World, kind: number, a: number, b: number): void {
  if (world.clientFault !== null) return;
  if (kind !== K.resendInFlight && (kind !== K.resend || world.healRound > 0)) return;
  const call = world.calls[a]!;
  if (kind === K.resend && !accepts(STREAM, world.views[call.view]!.stream, STREAM.event.emit)) return;
  world.clientFault = { step: world.step, action: describeAction(world, kind, a, b), modern: isModernClient(world.clients[call.client]!) };
}

const CONN = MODEL.connection;
const STREAM = MODEL.stream;

/**
 * What the simulator offers a target. A class rather than closures: a run builds one, and closures made per run
 * are each named at creation under tsx, which cost more than the run's first steps.
 */
class Host implements TargetHost {
  constructor(private readonly world: World) {}

  frame(connection: number, frame: Frame): void {
    this.world.inbox.push({ kind: 'frame', connection, frame });
  }

  end(connection: number): void {
    this.world.inbox.push({ kind: 'end', connection });
  }

  startExecution(start: ExecutionStart): number {
    const world = this.world;
    const call = world.callsById.get(start.callId) ?? null;
    if (call !== null) call.executions += 1;
    const execution: SimExecution = {
      index: world.executions.length,
      ordinal: call === null ? 1 : call.executions,
      call,
      callId: start.callId,
      tool: start.tool,
      sessionIdSeen: start.sessionId,
      epoch: world.epoch,
      k: 0,
      progressSteps: progressStepsOf(start.tool, world.config.workProgressSteps),
      finished: false,
      cancelled: false,
      node: start.node ?? 0,
      connection: world.handling,
      disconnected: false,
    };
    world.executions.push(execution);
    world.running.push(execution.index);
    if (start.tool === 'append') world.appends.set(start.callId, (world.appends.get(start.callId) ?? 0) + 1);
    if (world.notes !== null) world.notes.push({ kind: 'execution', tool: start.tool, call: start.callId, execution: execution.index + 1, session: start.sessionId });
    if (world.violation === null) {
      for (const monitor of monitorsOfExecution(world, execution).execution) report(world, monitor, monitor.onExecution!(world, execution), 'execution');
    }
    return execution.index;
  }

  nextStep(index: number): ToolStep {
    const world = this.world;
    const execution = world.executions[index]!;
    if (execution.finished && execution.epoch === world.epoch) throw new Error(`execution ${index} asked for a step past its result`);
    if (world.violation === null) {
      for (const monitor of monitorsOfExecution(world, execution).toolStep) report(world, monitor, monitor.onToolStep!(world, execution), 'tool step');
    }
    execution.k += 1;
    const provenance = { epoch: execution.epoch, sessionId: execution.sessionIdSeen, callId: execution.callId, k: execution.k, execution: execution.ordinal };
    const next = toolStep(provenance, execution.progressSteps);
    if (next.kind === 'result') {
      execution.finished = true;
      world.running.splice(world.running.indexOf(index), 1);
      const call = execution.call;
      // The call's stream completes when its own execution (its session, its incarnation) produces the result.
      // A 2026-07-28 call has no session (ID ''), and an unnamed session, or any of a server whose sessions outlive
      // restarts, goes on across them: its stream is its own request's, whatever incarnation answers it.
      if (call !== null && call.view >= 0 && call.session.id === execution.sessionIdSeen && (call.session.epoch === execution.epoch || call.session.id === '' || call.session.unnamed || world.run.sessionsOutliveRestart === true)) {
        const view = world.views[call.view]!;
        if (accepts(STREAM, view.stream, STREAM.event.complete)) view.stream = step(STREAM, view.stream, STREAM.event.complete);
      }
    }
    return next;
  }

  cancelled(index: number): void {
    const world = this.world;
    const execution = world.executions[index];
    if (execution === undefined) throw new Error(`target cancelled execution ${index}, which never started`);
    // A cancellation after the result, or a second one, changes nothing: the execution is over either way.
    if (execution.finished) return;
    execution.finished = true;
    execution.cancelled = true;
    world.running.splice(world.running.indexOf(index), 1);
    // The call's stream ends without its result: a cancelled request is answered by nothing (2026-07-28).
    const call = execution.call;
    // Only the call's latest execution answers its current view (a re-issued call has a view per request).
    if (call !== null && call.view >= 0 && execution.ordinal === call.executions) {
      const view = world.views[call.view]!;
      if (accepts(STREAM, view.stream, STREAM.event.abort)) view.stream = step(STREAM, view.stream, STREAM.event.abort);
    }
    if (world.notes !== null) world.notes.push({ kind: 'cancelled', tool: execution.tool, call: execution.callId, execution: index + 1 });
  }

  random(): number {
    return this.world.serverRandom.float();
  }
}

/** A frame as a record's fields (sim/levels/server-records.ts): its event ID and what its message is. */
export function frameFields(frame: Frame): FrameFields {
  if (frame.event === 'reset') return { eventId: frame.eventId, message: 'reset', params: JSON.stringify(frame.data?.['params'] ?? {}) };
  const provenance = provenanceOf(frame.data);
  if (provenance === null) {
    if (frame.data === null) return frame.retryMs === null ? { eventId: frame.eventId, message: 'priming' } : { eventId: frame.eventId, message: 'retry', retryMs: frame.retryMs };
    return { eventId: frame.eventId, message: 'message', data: JSON.stringify(frame.data).slice(0, 80) };
  }
  const message = provenance.callId === null ? 'notification' : provenance.result ? 'result' : 'progress';
  return { eventId: frame.eventId, message, k: provenance.k, call: provenance.callId, epoch: provenance.epoch, session: provenance.sessionId };
}

/** A message of the connection's own stream: the client's position in it moves on, and a result settles the call. */
function receiveOwn(world: World, connection: SimConnection, view: StreamView, provenance: Provenance): void {
  // Positions are those of the call's first execution; a re-execution's messages are new messages.
  if (provenance.execution === 1) {
    if (provenance.k > connection.kLast) connection.kLast = provenance.k;
    connection.kExpected = provenance.k + 1;
    if (provenance.k > view.kLast) view.kLast = provenance.k;
  }
  // A result after a reset on the same stream is still the result: the reset said only what was lost before it.
  if (provenance.result && view.outcome !== 'result' && view.outcome !== 'session-gone') {
    view.outcome = 'result';
    for (let index = view.received.length - 1; index >= 0 && view.beforeResult === null; index -= 1) {
      if (view.received[index]!.k < provenance.k) view.beforeResult = view.received[index]!;
    }
    if (view.beforeResult !== null) world.clients[connection.client]!.completedView = view.index;
  }
}

/**
 * A result of one of the client's calls was written toward it, on whatever connection, and arrived or was lost on the
 * way: any execution's result answers the call's request, so none is withheld afterwards (no-withheld-result).
 */
function noteResultWritten(world: World, connection: SimConnection, provenance: Provenance): void {
  const call = provenance.callId === null ? undefined : world.callsById.get(provenance.callId);
  if (call !== undefined && call.client === connection.client && call.view >= 0) world.views[call.view]!.resultWritten = true;
}

/**
 * A tools/call request of one of the client's own calls arrived on its stream (seed 000's variant: the server replayed
 * the request frame): the client's dispatcher takes it for a request, and will send it again (action resendEchoed).
 */
function noteEchoedRequest(world: World, connection: SimConnection, message: JsonRpcMessage): void {
  if (message['method'] !== 'tools/call' || !('id' in message)) return;
  const callId = (message['params'] as { arguments?: { callId?: unknown } } | undefined)?.arguments?.callId;
  const call = typeof callId === 'string' ? world.callsById.get(callId) : undefined;
  if (call !== undefined && call.client === connection.client && call.echoesPending < ECHOES_PENDING_MAX) call.echoesPending += 1;
}

/** Echoed requests a client keeps to send again at the most (each echo a replay brings adds one). */
const ECHOES_PENDING_MAX = 2;

/** A result of one of the client's calls arrived at the client (counted for the policy table, cli/policy-table.ts). */
function noteResultReceived(world: World, connection: SimConnection, provenance: Provenance): void {
  const call = provenance.callId === null ? undefined : world.callsById.get(provenance.callId);
  if (call !== undefined && call.client === connection.client) call.resultsReceived += 1;
}

/** The session an initialize's streamed result made learns the version the result gives. */
function noteNegotiated(world: World, connection: SimConnection, message: JsonRpcMessage): void {
  const session = world.clients[connection.client]!.session;
  const version = negotiatedVersion(message);
  // The session this initialize made: the one its answer named (an unnamed session's answer named none).
  if (session === null || version === null || session.negotiated !== null || connection.sessionIdAnswered !== (session.unnamed ? null : session.id)) return;
  session.negotiated = version;
}

/** A frame written on a losing connection never arrives; the last one lost breaks the connection. */
function loseFrame(world: World, connection: SimConnection, frame: Frame): void {
  if (world.notes !== null) world.notes.push({ kind: 'frameLost', connection: connection.index, client: connection.client + 1, ...frameFields(frame) });
  const provenance = provenanceOf(frame.data);
  if (provenance !== null && provenance.result) noteResultWritten(world, connection, provenance);
  connection.framesToLose -= 1;
  if (connection.framesToLose > 0) return;
  breakConnection(world, connection);
  world.pendingCuts.push(connection.index);
}

/** A losing connection breaks: the client sees it cut, as after any cut. */
function breakConnection(world: World, connection: SimConnection): void {
  changeConnection(world, connection, CONN.event.cut);
  connection.framesToLose = 0;
  if (world.notes !== null) world.notes.push({ kind: 'breaks', connection: connection.index, client: connection.client + 1 });
  if (connection.view >= 0 && world.views[connection.view]!.connection === connection.index) world.views[connection.view]!.connection = -1;
}

function receiveFrame(world: World, connection: SimConnection, frame: Frame): void {
  if (connection.state !== CONN.state.attached) {
    if (connection.state === CONN.state.losing) loseFrame(world, connection, frame);
    return;
  }
  receiveAttached(world, connection, frame);
  // A lossy call's response: after the frames it keeps, the network loses what follows; the next frame lost breaks it.
  if (connection.framesKept > 0 && --connection.framesKept === 0 && connection.state === CONN.state.attached) {
    changeConnection(world, connection, CONN.event.loseTail);
    connection.framesToLose = 1;
  }
}

function receiveAttached(world: World, connection: SimConnection, frame: Frame): void {
  if (world.notes !== null) world.notes.push({ kind: 'frame', connection: connection.index, client: connection.client + 1, ...frameFields(frame) });
  const view = connection.view >= 0 ? world.views[connection.view]! : null;
  const monitors = monitorsAt(world, connection);
  if (world.violation === null) {
    for (const monitor of monitors.frame) report(world, monitor, monitor.onFrame!(world, connection, frame), frame, connection);
  }
  connection.framed = true;
  // A `retry:` field sets the client's reconnection time for the stream (retry-before-close reads it at a close).
  if (frame.retryMs !== null && view !== null) view.retried = true;
  // An initialize answered with a stream: its result says which version the session speaks.
  if (connection.purpose === 'initialize' && frame.data !== null) noteNegotiated(world, connection, frame.data);
  if (frame.event === 'reset') {
    connection.resetSeen = true;
    const reason = (frame.data?.['params'] as { reason?: unknown } | undefined)?.reason;
    connection.resetReason = typeof reason === 'string' ? reason : null;
    if (view !== null && !isSettled(view.outcome)) view.outcome = 'reset';
    return;
  }
  if (frame.data !== null) {
    noteEchoedRequest(world, connection, frame.data);
    noteResponse(world, connection, frame.data);
  }
  const provenance = frame.data === null ? null : provenanceOf(frame.data);
  if (provenance !== null) {
    const arrival: Arrival = { connection, provenance, message: frame.data!, eventId: frame.eventId };
    if (world.violation === null) {
      for (const monitor of monitors.arrival) report(world, monitor, monitor.onArrival!(world, arrival), arrival, connection);
    }
    if (provenance.result) {
      noteResultWritten(world, connection, provenance);
      noteResultReceived(world, connection, provenance);
    }
    if (view !== null && (view.call === null ? null : view.call.id) === provenance.callId) receiveOwn(world, connection, view, provenance);
  }
  if (frame.eventId !== null && view !== null) {
    // Event IDs are unique within a session (MCP), not across sessions: an ID is judged within the session that got it
    // (a per-session counter repeats IDs in every session); cross-session delivery is judged by provenance.
    const key = `${connection.session === null ? -1 : connection.session.index}|${frame.eventId}`;
    const stream = view.call === null ? 'standalone' : view.call.id;
    const owner = world.eventOwners.get(key);
    // Only an ID seen before on another stream or session needs the monitors; the common case allocates nothing.
    if (owner === undefined) world.eventOwners.set(key, { session: connection.session, stream });
    else if (world.violation === null && (owner.session !== connection.session || owner.stream !== stream)) {
      const own: EventOwner = { session: connection.session, stream };
      for (const monitor of monitors.eventId) report(world, monitor, monitor.onEventId!(world, connection, frame.eventId, own, owner), 'event id', connection);
    }
    // The position a cursor stands for is where this connection had got to in its stream, not the view's best.
    const cursor = { eventId: frame.eventId, view: view.index, k: connection.kLast };
    view.received.push(cursor);
    if (provenance !== null && provenance.result && provenance.execution === 1 && view.call !== null && view.call.id === provenance.callId) view.terminalCursor = cursor;
    const client = world.clients[connection.client]!;
    client.cursorLatest = cursor;
  }
}

/**
 * The server ended `connection` on its own: when that leaves the call whose stream it carries unanswered there (no
 * response of any request on it, no reset, the client still waiting), in a live session, with no retry field on the
 * stream before, the view keeps it for retry-before-close, which judges it if a resume of the stream carries the answer.
 */
function noteUnretriedEnd(world: World, connection: SimConnection): void {
  if (connection.view < 0 || connection.responded || connection.resetSeen) return;
  const view = world.views[connection.view]!;
  if (view.call === null || view.connection !== connection.index || view.retried || view.unretriedEnd >= 0) return;
  if (view.outcome !== 'pending' || view.resultWritten || view.session.state !== MODEL.session.state.live) return;
  view.unretriedEnd = connection.index;
}

function endConnection(world: World, connection: SimConnection, handled: number): void {
  if (connection.state !== CONN.state.attached) {
    // The end of a losing connection's response is lost with its tail: the client only sees the connection break.
    if (connection.state === CONN.state.losing) {
      if (world.notes !== null) world.notes.push({ kind: 'endLost', connection: connection.index, client: connection.client + 1 });
      breakConnection(world, connection);
    }
    return;
  }
  // Asked to close it (polling), the server closes the connection without ending the stream: no end to judge.
  const closing = world.closing === connection.index;
  changeConnection(world, connection, closing ? CONN.event.close : CONN.event.end);
  if (world.notes !== null) world.notes.push({ kind: 'end', connection: connection.index, client: connection.client + 1, closing });
  // An end while the server handled another request is that request's doing (a resume taking the stream over, a
  // DELETE, a new initialize), not the server closing a connection on its own.
  if (!closing && (handled < 0 || handled === connection.index)) noteUnretriedEnd(world, connection);
  if (world.violation === null) {
    const monitors = monitorsAt(world, connection);
    if (closing) for (const monitor of monitors.close) report(world, monitor, monitor.onClose!(world, connection), 'connection closed', connection);
    else for (const monitor of monitors.end) report(world, monitor, monitor.onEnd!(world, connection), 'end of stream', connection);
  }
  if (connection.view >= 0) {
    const view = world.views[connection.view]!;
    if (view.connection === connection.index) view.connection = -1;
  }
}

/**
 * A call answered with its response as a JSON body (continueAction returns it): the body reaches the client as the
 * call's result, as a stream's one event without an ID would, and the exchange is over (the connection carries the view
 * no longer).
 */
function receiveJsonAnswer(world: World, connection: SimConnection, body: JsonRpcMessage): void {
  receiveAttached(world, connection, { eventId: null, event: null, data: body, retryMs: null });
  const view = world.views[connection.view]!;
  if (view.connection === connection.index) view.connection = -1;
}

/** Handles what the target reported during an operation; `handled` is the connection whose request it was handling, or -1. */
function drainInbox(world: World, handled = -1): void {
  // Items may be added while draining (never by the handlers here, but cheaply safe).
  for (let index = 0; index < world.inbox.length; index += 1) {
    const item = world.inbox[index]!;
    const connection = world.connections[item.connection];
    if (connection === undefined) throw new Error(`target reported connection ${item.connection}, which was never opened`);
    if (item.kind === 'frame') receiveFrame(world, connection, item.frame);
    else endConnection(world, connection, handled);
  }
  if (world.inbox.length > 0) world.inbox.length = 0;
}

function observeResponse(world: World): (connection: SimConnection) => void {
  return (connection) => {
    if (world.violation !== null) return;
    for (const monitor of monitorsAt(world, connection).response) report(world, monitor, monitor.onResponse!(world, connection), connection, connection);
  };
}

/**
 * Everything a driver needs, built once per run: the server level's run, whose hooks the one loop (nextStep) calls
 * as it calls any level's (sim/levels/level.ts).
 */
export class ServerRun implements LevelRun {
  readonly host: TargetHost;
  readonly observe: (connection: SimConnection) => void;
  /** The step-end and final monitors that apply to this run's clients. */
  readonly stepMonitors: readonly Property[];
  readonly finishMonitors: readonly Property[];
  /** Where a run that goes on past its violations files them (sim/every-violation.ts); null: none. */
  readonly every: EveryViolation | null;

  constructor(
    readonly world: World,
    readonly list: ActionList,
    readonly trace: TraceStep[] | null,
    public coverage: CoverageObserver | null,
  ) {
    this.host = new Host(world);
    // A search counts the coverage of a run's first simulation alone: the run as far as its first violation. (The
    // run itself is told, not a closure made per run: one costs a run a fifth of its time here.)
    this.every = world.every;
    if (world.every !== null) world.every.watcher = this;
    this.observe = observeResponse(world);
    this.stepMonitors = applyingToRun(world, STEP_MONITORS);
    this.finishMonitors = applyingToRun(world, FINISH_MONITORS);
  }

  /** The first of the simulations a run going on past its violations stands for ended here: its coverage ends too. */
  firstEnded(): void {
    this.coverage?.endRun();
    this.coverage = null;
  }

  enumerate(): void {
    enumerateActions(this.world, this.list);
  }

  begin(choice: number, phase: TraceStep['phase']): void {
    beginStep(this, choice, phase);
  }

  step(kind: number, a: number, b: number): Promise<void> | void {
    return this.world.run.sync ? stepSync(this, kind, a, b) : stepAsync(this, kind, a, b);
  }

  startHeal(): void {
    startHeal(this.world);
  }

  nextHeal(): number | null {
    return nextHealAction(this.world, this.list);
  }

  finish(): void {
    finish(this.world, this.finishMonitors);
  }

  async close(): Promise<void> {
    await this.world.run.close();
  }
}

/** Opens a run of `target` at the server level: its world, its first incarnation booted. */
export async function openServerRun(target: Target, config: SimConfig, options: LevelRunOptions): Promise<ServerRun> {
  const run = await target.open({ windowEventsMax: config.windowEventsMax, seed: config.seed });
  const eras = erasOf(target.eras);
  const world = createWorld(config, run, createPrng(`${config.seed}/server`), { revisions: clientRevisions(config, target.eras), eras });
  world.checked = options.properties === null ? null : new Set(options.properties);
  if (options.everyViolation) world.every = new EveryViolation(world.checked, PROPERTY_NAMES.length);
  options.coverage?.beginRun();
  const context = new ServerRun(world, options.actions ?? createActionList(), options.record ? [] : null, options.coverage);
  world.server = run.boot({ epoch: 1 }, context.host);
  return context;
}

/**
 * The server level of `target`, as the engine opens every level: a server target names no level, and this one is
 * made for it (once per target).
 */
export function serverLevel(target: Target): RunLevel {
  let level = SERVER_LEVELS.get(target);
  if (level === undefined) {
    level = { open: (config, options) => openServerRun(target, config, options) };
    SERVER_LEVELS.set(target, level);
  }
  return level;
}

const SERVER_LEVELS = new WeakMap<Target, RunLevel>();

/** Records a step about to be taken, when the run is recorded. */
function beginStep(context: ServerRun, choice: number, phase: TraceStep['phase']): void {
  const { world, list, trace } = context;
  const kind = list.kind[choice]!;
  const a = list.a[choice]!;
  const b = list.b[choice]!;
  world.acting = kind;
  if (trace !== null) {
    world.notes = [];
    // In the liveness phase the client itself sends a request again, when it never got a cursor to resume with.
    const action =
      phase === 'liveness' && kind === K.resend
        ? { kind: 'resendNoCursor', client: world.calls[a]!.client + 1, call: world.calls[a]!.id }
        : actionRecord(world, kind, a, b);
    // A configured protocol says, once, what each client speaks (replay derives the same from the trace's config).
    if (trace.length === 0 && world.config.protocol !== undefined) {
      world.notes.push({ kind: 'protocol', protocol: world.config.protocol, revisions: world.clients.map((client) => client.revision) });
    }
    trace.push({ choice, phase, action, observations: world.notes });
  }
}

/** A value, or a promise of it: what a synchronous target's operations return, and an asynchronous one's. */
type Maybe<T> = T | Promise<T>;

/** What the target returned for an operation: a response, one per request of a `handleTogether`, or nothing. */
type OpAnswer = HttpResponse | readonly HttpResponse[] | undefined;

function isPromise<T>(value: Maybe<T>): value is Promise<T> {
  return typeof (value as Promise<T> | null)?.then === 'function';
}

/** The continuation of an operation whose answer is nothing: one function, not a closure an operation. */
const NOTHING = (): undefined => undefined;

/** Then `next`, at once when `value` is not a promise (a synchronous target), after it otherwise. */
function then<T, U>(value: Maybe<T>, next: (value: T) => U): Maybe<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

/**
 * Hands one operation to the target. A synchronous target's answer comes back as it is, an asynchronous one's as a
 * promise; what must follow the answer (the handling connection cleared, a restarted server booted) follows it either way.
 */
function perform(context: ServerRun, op: Op): Maybe<OpAnswer> {
  const { world, host } = context;
  const server = world.server;
  switch (op.kind) {
    case 'handle':
      // Executions the request starts are its own exchange's (disconnect-cancels, result-to-its-request).
      world.handling = op.request.connection;
      return then(server.handle(op.request), (response) => {
        world.handling = -1;
        return response as HttpResponse;
      });
    case 'handleTogether': {
      // Every request is handed over before any answer is awaited: an asynchronous target (over the wire) has them all
      // out at once. An execution they start is not tied to either exchange (world.handling stays -1).
      const answers = op.requests.map((request) => server.handle(request));
      return answers.some(isPromise) ? Promise.all(answers) : (answers as HttpResponse[]);
    }
    case 'cut':
      return then(server.cut(op.connection), NOTHING);
    case 'advance':
      return then(server.advance(op.execution), NOTHING);
    case 'notify':
      return then(server.notify(op.sessionId, op.message), NOTHING);
    case 'closeConnection':
      return then(server.closeConnection(op.connection, op.retryMs), NOTHING);
    case 'expire':
      return then(server.expire(op.sessionId), NOTHING);
    case 'restart': {
      const disposed = server.dispose();
      const boot = () => {
        world.inbox.length = 0;
        world.server = world.run.boot({ epoch: world.epoch }, host);
        return undefined;
      };
      // A synchronous run does not wait for the old instance's disposal (a shared store may close in the background).
      return world.run.sync ? boot() : then(disposed, boot);
    }
    case 'crashNode':
      return then(server.crashNode!(op.node), NOTHING);
    case 'restartNode':
      return then(server.restartNode!(op.node), NOTHING);
    case 'catchUp':
      return then(server.catchUp!(), NOTHING);
    case 'abortExecution':
      return then(server.abortExecution!(op.execution), NOTHING);
    case 'network':
      return undefined;
  }
}

/**
 * What follows an operation besides its own continuation: the server is told of the cuts a lost tail caused (it
 * learns of a broken connection only after it wrote into it), and a close that did not happen is noted.
 */
function settleOp(world: World, op: Op): Op | null {
  if (op.kind === 'closeConnection') {
    world.closing = -1;
    const connection = world.connections[op.connection]!;
    if (world.notes !== null && connection.state === CONN.state.attached) world.notes.push({ kind: 'stillOpen', connection: op.connection });
  }
  const index = world.pendingCuts.pop();
  return index === undefined ? null : { kind: 'cut', connection: index };
}

/** Runs the step-end monitors. */
function endStep(context: ServerRun): void {
  const { world } = context;
  if (world.violation !== null) return;
  for (const monitor of context.stepMonitors) report(world, monitor, monitor.onStep!(world), 'after the step');
}

/**
 * The server is about to be told that a connection broke: a 2026-07-28 exchange that had not delivered its result
 * is now a cancelled request, and the executions answering it must stop (disconnect-cancels judges that).
 */
function noteDisconnect(world: World, op: Op): void {
  if (op.kind !== 'cut') return;
  const connection = world.connections[op.connection]!;
  if (!isModernClient(world.clients[connection.client]!)) return;
  const call = connection.view >= 0 ? world.views[connection.view]!.call : null;
  // A running execution has produced no result yet. Only those this exchange's own request started are cancelled by
  // its cut: a colliding request under the same ID, or a re-send of the same call, is another exchange.
  for (const index of world.running) {
    const execution = world.executions[index]!;
    const own = execution.connection >= 0 ? execution.connection === connection.index : call !== null && execution.call === call;
    if (own && !execution.disconnected) execution.disconnected = true;
  }
}

/**
 * One step of the server level, as the operations it hands to the target: each `yield` is an operation, answered with
 * what the target returned. The one code path of a step; {@link stepSync} and {@link stepAsync} only drive it.
 */
function* stepOps(context: ServerRun, kind: number, a: number, b: number): Generator<Op, void, OpAnswer> {
  const { world } = context;
  if (context.coverage !== null) context.coverage.action(kind);
  noteClientFault(world, kind, a, b);
  let op: Op | null = startAction(world, kind, a, b);
  while (op !== null) {
    // Coverage reads states once the request is made and again once its answer is handled.
    if (context.coverage !== null) context.coverage.observe(world);
    noteDisconnect(world, op);
    const answered = yield op;
    if (op.kind === 'handleTogether') {
      // Each response head in the order the requests went out, then whatever the streams carried, as it arrived.
      const responses = answered as readonly HttpResponse[];
      op.requests.forEach((request, index) => {
        const answer = continueAction(world, { kind: 'handle', request, stage: 0 }, responses[index], context.observe);
        if (answer !== null) receiveJsonAnswer(world, world.connections[request.connection]!, answer);
      });
    } else {
      const answer = continueAction(world, op, answered as HttpResponse | undefined, context.observe);
      if (answer !== null && op.kind === 'handle') receiveJsonAnswer(world, world.connections[op.request.connection]!, answer);
    }
    drainInbox(world, op.kind === 'handle' ? op.request.connection : -1);
    for (let cut = settleOp(world, op); cut !== null; cut = settleOp(world, cut)) {
      noteDisconnect(world, cut);
      yield cut;
      drainInbox(world);
    }
    if (context.coverage !== null) context.coverage.observe(world);
    op = followUp(world, op);
  }
  endStep(context);
}

/** Takes a step of a synchronous target: every operation's answer is there when it returns. */
export function stepSync(context: ServerRun, kind: number, a: number, b: number): void {
  const ops = stepOps(context, kind, a, b);
  for (let next = ops.next(); next.done !== true; ) {
    const answer = perform(context, next.value);
    if (isPromise(answer)) throw new Error(`a synchronous target answered ${next.value.kind} with a promise`);
    next = ops.next(answer);
  }
}

/** Takes a step of an asynchronous target, awaiting each operation's answer. */
async function stepAsync(context: ServerRun, kind: number, a: number, b: number): Promise<void> {
  const ops = stepOps(context, kind, a, b);
  for (let next = ops.next(); next.done !== true; ) next = ops.next(await perform(context, next.value));
}

/** Offers exactly one action, the liveness phase's next. */
function offer(list: ActionList, kind: number, a: number): number {
  list.kind[0] = kind;
  list.a[0] = a;
  list.b[0] = 0;
  list.count = 1;
  return 0;
}

/**
 * The liveness phase's next action, or null when the world has settled: faults have stopped; the server
 * finishes its work; each live client resumes each stream it still waits on with its latest cursor
 * (or re-sends the request when it never got a cursor).
 */
function nextHealAction(world: World, list: ActionList): number | null {
  list.count = 0;
  // Faults have stopped: a connection still losing its tail breaks now (the network gives up on it).
  for (const connection of world.connections) {
    if (connection.state === CONN.state.losing) return offer(list, K.cut, connection.index);
  }
  if (world.running.length > 0) return offer(list, K.advance, world.running[0]!);
  // Under a store lag, writes still on their way reach every node before the clients are judged on them.
  if (world.server.lagging?.() === true) return offer(list, K.catchUp, 0);
  const reissuing = world.config.reissueAfterReset === true;
  for (const client of world.clients) {
    if (client.state === MODEL.client.state.stateless) {
      // 2026-07-28: nothing to resume; a call whose exchange broke (or was refused) is re-issued as a new request.
      for (const call of client.modernCalls) {
        const view = world.views[call.view]!;
        if (isSettled(view.outcome) || view.connection >= 0 || view.healed === world.healRound) continue;
        view.healed = world.healRound;
        return offer(list, K.reissue, call.index);
      }
      continue;
    }
    // A re-issuing client (seed 004) that lost its session initializes again, to re-issue its calls in the new one.
    if (reissuing && client.state === MODEL.client.state.dead && hasCallToReissue(world, client)) return offer(list, K.initialize, client.index);
    if (client.state !== MODEL.client.state.live) continue;
    for (const viewIndex of client.views) {
      const view = world.views[viewIndex]!;
      if (view.session !== client.session || view.call === null || isSettled(view.outcome) || view.connection >= 0) continue;
      if (view.healed === world.healRound) continue;
      view.healed = world.healRound;
      return view.received.length > 0 ? offer(list, K.resumeLatest, view.index) : offer(list, K.resend, view.call.index);
    }
    if (reissuing) {
      for (const call of world.calls) if (call.client === client.index && isReissuable(world, call)) return offer(list, K.reissueLegacy, call.index);
    }
    // A standalone stream the client lost is resumed too (or opened again when it never got a cursor, as servers
    // that send no priming event on GET streams leave it), so the closing notification has somewhere to arrive.
    if (client.standaloneView >= 0) {
      const view = world.views[client.standaloneView]!;
      if (view.session === client.session && view.outcome === 'pending' && view.connection < 0 && view.healed !== world.healRound) {
        view.healed = world.healRound;
        return view.received.length > 0 ? offer(list, K.resumeLatest, view.index) : offer(list, K.openStandalone, client.index);
      }
    }
  }
  // Once calls have settled, every session with a standalone stream gets one notification: a connection that
  // joined another session's stream shows itself by receiving it (unless the target cannot be made to notify).
  if (world.run.unsupported !== undefined && world.run.unsupported.includes('notify')) return null;
  for (const client of world.clients) {
    const session = client.session;
    if (client.state !== MODEL.client.state.live || session === null || client.standaloneView < 0) continue;
    if (session.state !== MODEL.session.state.live || session.notifiedInLiveness || session.unnamed) continue;
    session.notifiedInLiveness = true;
    return offer(list, K.notify, client.index);
  }
  return null;
}

function startHeal(world: World): void {
  world.serverState = step(MODEL.server, world.serverState, MODEL.server.event.heal);
}

/** Runs the final checks once the world has settled. */
function finish(world: World, monitors: readonly Property[]): void {
  if (world.violation === null) {
    world.acting = -1;
    for (const monitor of monitors) report(world, monitor, monitor.onFinish!(world), 'settled');
  }
  // A property kept aside, then a finding a client's fault triggered, then a note, is the run's verdict only when
  // nothing else was violated (the first fails only with --strict, the others fail nothing: the commands say so).
  if (world.violation === null && world.aside !== null) world.violation = world.aside;
  if (world.violation === null && world.triggered !== null) world.violation = world.triggered;
  if (world.violation === null && world.noted !== null) world.violation = world.noted;
}

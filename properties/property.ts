// What a property is: a name, a one-sentence statement, its source, safety or liveness, and an online
// monitor over what clients and the simulator's tools observe (never over a target's internals).

import type { Revision } from '../sim/config.ts';
import type { Arrival, EventOwner, SimConnection, SimExecution, World } from '../sim/world.ts';
import type { Frame } from '../targets/target.ts';
import type { PropertyName } from './names.ts';

import type { Severity } from './severity.ts';
import type { Source } from './source.ts';

export type { Severity } from './severity.ts';

/** The legacy era's revisions, which most properties apply to (sessions, SSE resumability). */
export const LEGACY: readonly Revision[] = ['2025-03-26', '2025-06-18', '2025-11-25'];
/** Every revision. */
export const ALL_REVISIONS: readonly Revision[] = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
/** The modern era's revision. */
export const MODERN: readonly Revision[] = ['2026-07-28'];

/**
 * What a hook says of a violation: its explanation, or the explanation with the property's own word for the
 * mechanism (which goes into the finding's signature, so two mechanisms of one property are kept apart).
 */
export type Verdict = string | { readonly explanation: string; readonly mechanism: string } | null;

/** An invariant resumecheck checks. Each hook returns a verdict when it sees a violation, else null. */
export interface Property {
  readonly name: PropertyName;
  /** One sentence: what must hold. */
  readonly statement: string;
  /**
   * The sentence it comes from: a specification sentence as written, a seed passage verbatim, or resumecheck's own
   * design rule with its reason. Its keyword is the property's severity (properties/sources.test.ts checks it).
   */
  readonly source: Source;
  /** Other words that bear on it, for a reader; they never set its severity. */
  readonly background?: string;
  readonly kind: 'safety' | 'liveness';
  /** How strongly its source requires it (properties/severity.ts): the keyword of the sentence it cites. */
  readonly severity: Severity;
  /**
   * How a finding is charged when the run's client broke a requestor's rule first (a request ID reused while in
   * flight, sim/client-fault.ts): `server` when the property holds whatever the client did, so the finding is the
   * server's; `triggered` when the client's step can itself produce it, so it is reported as triggered by that step
   * and fails nothing.
   */
  readonly underClientFault: 'server' | 'triggered';
  /** Set when the property can fire only after such a client step: one sentence saying so. */
  readonly needsClientFault?: string;
  /**
   * Set when the property is judged only on a fault the config must ask for (config versionFaults, off by default in
   * process): the matrix, whose runs are the default ones, has no column for it.
   */
  readonly onlyWith?: 'versionFaults';
  /**
   * Set when a violation of it is kept aside until the run is over, becoming the run's verdict only when no other
   * property was violated: one sentence saying why (a server that breaks it does so at every stream, and each run
   * would otherwise end there, hiding everything else the run would show).
   */
  readonly keptAside?: string;
  /**
   * The protocol revisions it applies to: the engine consults its monitors only for what a client of one of them
   * observes (connection hooks: the connection's client; execution hooks: the call's client; global hooks: when a
   * client of the run speaks one).
   */
  readonly revisions: readonly Revision[];
  /** A message with provenance arrived on a connection (checked before the world records it). */
  readonly onArrival?: (world: World, arrival: Arrival) => Verdict;
  /**
   * A frame with an event ID arrived on a connection that carries a stream of the client's (`own` names it),
   * whether or not its message has provenance; `owner` is where that ID was first delivered, if anywhere.
   */
  readonly onEventId?: (world: World, connection: SimConnection, eventId: string, own: EventOwner, owner: EventOwner | undefined) => Verdict;
  /** Any frame arrived on an open connection (before the others see it). */
  readonly onFrame?: (world: World, connection: SimConnection, frame: Frame) => Verdict;
  /** A response head arrived. */
  readonly onResponse?: (world: World, connection: SimConnection) => Verdict;
  /** The server ended a connection's response body (and with it the stream, as far as the client can tell). */
  readonly onEnd?: (world: World, connection: SimConnection) => Verdict;
  /** The server closed a connection it was asked to close (a 2025-11-25 server polling): its stream goes on. */
  readonly onClose?: (world: World, connection: SimConnection) => Verdict;
  /** A tool execution started. */
  readonly onExecution?: (world: World, execution: SimExecution) => Verdict;
  /** The server asked a running execution for its next step (a progress notification or its result). */
  readonly onToolStep?: (world: World, execution: SimExecution) => Verdict;
  /** A step is over (its operations and everything they caused were handled), in either phase. */
  readonly onStep?: (world: World) => Verdict;
  /** The run is over, after the liveness phase. */
  readonly onFinish?: (world: World) => Verdict;
}

/** The call ID a connection's own stream carries (null for a standalone stream); undefined when it has none. */
export function ownCallId(world: World, connection: SimConnection): string | null | undefined {
  if (connection.view < 0) return undefined;
  const view = world.views[connection.view]!;
  return view.call === null ? null : view.call.id;
}

/** True when the arrival belongs to the stream its connection is for. */
export function isOwnStream(world: World, arrival: Arrival): boolean {
  return ownCallId(world, arrival.connection) === arrival.provenance.callId;
}

/**
 * True when the arrival has a position to judge: it belongs to the connection's own stream and to the call's first
 * execution. A second execution (a re-executed request) produces new messages, whose existence is
 * exactly-once-execution's business; their positions say nothing about redelivery, order or gaps.
 */
export function isPositioned(world: World, arrival: Arrival): boolean {
  return arrival.provenance.execution === 1 && isOwnStream(world, arrival);
}

/** How a message is named in explanations. */
export function describeMessage(arrival: Arrival): string {
  const { provenance } = arrival;
  const what = provenance.callId === null ? `notification #${provenance.k}` : provenance.result ? `the result of ${provenance.callId}` : `progress #${provenance.k} of ${provenance.callId}`;
  const execution = provenance.execution === 1 ? '' : `, execution ${provenance.execution}`;
  // A 2026-07-28 request's messages belong to no session.
  const session = provenance.sessionId === '' ? 'no session' : `session ${provenance.sessionId}`;
  return `${what} (epoch ${provenance.epoch}, ${session}${execution})`;
}

// Which actions commute, for the exhaustive search's partial-order reduction (sleep sets, sim/search/frontier-search.ts):
// each action kind's footprint, the clients whose state it reads or writes. Two actions with disjoint footprints
// are independent: taken in either order from one world they lead to worlds that differ only in names (call,
// session, connection and execution numbers, which the target and the properties only compare), so every monitor
// gives the same verdict either way. The README's "Exhaustive exploration" section argues each entry.

import { ACTION_KINDS, type ActionKind } from '../config.ts';
import type { World } from '../world.ts';

/**
 * Whose state an action kind touches:
 * - `client`: the client named by `a` (a client index) and nothing of any other client;
 * - `connection`, `view`, `call`, `execution`: the one client owning the connection, view, call or execution `a`;
 * - `global`: possibly every client (dependent with every action).
 */
export type Footprint = 'client' | 'connection' | 'view' | 'call' | 'execution' | 'global';

/**
 * The footprint of every action kind, with why. Conservative: a kind whose effect a target might carry to another
 * session (a request the client does not tie to a stream of its own, which a target may attach to any stream) or
 * that changes what every session sees (a restart, a node's crash) is `global`.
 */
export const INDEPENDENCE: Readonly<Record<ActionKind, { readonly footprint: Footprint; readonly why: string }>> = {
  initialize: { footprint: 'client', why: 'a new session of its own; the session ID drawn from the shared PRNG is a name (the other order swaps the two IDs)' },
  call: { footprint: 'client', why: "a new call and stream in the client's session; the call ID and execution number are names" },
  callStale: { footprint: 'client', why: "as `call`, with the client's own latest cursor attached" },
  cut: { footprint: 'connection', why: "the client loses one of its connections; a connection carrying another session's stream makes the world entangled (no reduction)" },
  resumeLatest: { footprint: 'view', why: "a GET with the client's own cursor of its own stream" },
  resumeEarlier: { footprint: 'view', why: "a GET with the client's own cursor of its own stream" },
  resumeCompleted: { footprint: 'view', why: "a GET with the client's own cursor of its own stream" },
  resumeForeign: { footprint: 'global', why: "carries another client's cursor: joins that client's stream where the target lets it" },
  resumePreRestart: { footprint: 'global', why: 'a cursor tied to no current stream of the client: the target may attach it to any' },
  resumeForged: { footprint: 'global', why: 'a cursor tied to no current stream of the client: the target may attach it to any' },
  resumeMalformed: { footprint: 'global', why: 'a cursor tied to no current stream of the client: the target may attach it to any' },
  openStandalone: { footprint: 'client', why: "a new standalone stream of the client's session (the previous one is superseded: the same session)" },
  resend: { footprint: 'call', why: "the client's own request re-sent in its own session" },
  delete: { footprint: 'client', why: "ends the client's own session" },
  headerless: { footprint: 'global', why: 'no Mcp-Session-Id: the target may take it for any session' },
  badVersion: { footprint: 'client', why: "the client's standalone GET or DELETE with another MCP-Protocol-Version: what openStandalone or delete touches" },
  advance: { footprint: 'execution', why: "the next message of one execution, written to the streams of the call's session" },
  notify: { footprint: 'client', why: "a notification on the client's own standalone stream" },
  serverClose: { footprint: 'connection', why: 'the server closes one connection of the client' },
  restart: { footprint: 'global', why: 'every session, connection and execution ends' },
  expire: { footprint: 'client', why: "the client's own session expires" },
  resumeAttached: { footprint: 'view', why: "a second GET for the client's own stream" },
  resendInFlight: { footprint: 'call', why: "the client's own request id, in its own session" },
  resumeTerminal: { footprint: 'view', why: "a GET with the client's own terminal cursor" },
  callLossy: { footprint: 'client', why: 'a call of the client in its own session, as call, whose own new connection loses its tail' },
  callTogether: { footprint: 'global', why: 'two clients call at once: each request may meet the other in the server (a request ID both sessions use, one outbox)' },
  loseTail: { footprint: 'connection', why: 'the network loses frames of one connection of the client' },
  crashNode: { footprint: 'global', why: "a node's connections and executions of every session end" },
  restartNode: { footprint: 'global', why: 'the node serves every session again' },
  catchUp: { footprint: 'global', why: "the shared store's writes of every session reach every node" },
  // The 2026-07-28 client's kinds: every modern exchange is served in one stateless record (ID ''), and a target may
  // key exchanges by request ID across clients (swift-sdk #254 did), so none of them is taken to commute with anything.
  callModern: { footprint: 'global', why: "a 2026-07-28 exchange: served outside any session, where a target may confuse it with another client's" },
  reissue: { footprint: 'global', why: 'a 2026-07-28 re-issue under a new request ID: as callModern' },
  callProxied: { footprint: 'global', why: "carries another client's Mcp-Session-Id or cursor into a 2026-07-28 exchange" },
  probeModern: { footprint: 'global', why: 'a GET or DELETE without a session of its own: the target may take it for any' },
  resendEchoed: { footprint: 'call', why: "the client's own request, sent again in its own session" },
  reissueLegacy: { footprint: 'call', why: "the client's own call, sent again under a new request ID in its own (current) session" },
  abortTool: { footprint: 'execution', why: "one execution of the client's call ends without an answer; its stream is the call's" },
  resumeSuperseded: { footprint: 'view', why: "a GET with the client's own cursor of its own (superseded) standalone stream" },
};

/** A footprint that is dependent with everything. */
export const EVERY_CLIENT = -1;

/** Kind numbers by footprint, in ACTION_KINDS order (the table is read once, not per action). */
const FOOTPRINTS: readonly Footprint[] = ACTION_KINDS.map((kind) => INDEPENDENCE[kind].footprint);

/** The clients an enabled action `(kind, a, b)` touches in `world`, as a bit mask, or {@link EVERY_CLIENT}. */
export function footprintOf(world: World, kind: number, a: number): number {
  switch (FOOTPRINTS[kind]) {
    case 'client':
      return 1 << a;
    case 'connection':
      return 1 << world.connections[a]!.client;
    case 'view':
      return 1 << world.views[a]!.client;
    case 'call':
      return 1 << world.calls[a]!.client;
    case 'execution': {
      // An execution of no call the simulator made (a target's own) may write anywhere.
      const call = world.executions[a]!.call;
      return call === null ? EVERY_CLIENT : 1 << call.client;
    }
    default:
      return EVERY_CLIENT;
  }
}

/** True when two actions with these footprints commute. */
export function independent(left: number, right: number): boolean {
  return left !== EVERY_CLIENT && right !== EVERY_CLIENT && (left & right) === 0;
}

/**
 * True when some attached connection carries a stream its client does not own (a foreign, forged or pre-restart
 * cursor the target answered with a stream): the clients' states are then tied together, and no two actions are
 * taken as independent from such a world.
 */
export function isEntangled(world: World): boolean {
  for (const index of world.attached) if (world.connections[index]!.view < 0) return true;
  return false;
}

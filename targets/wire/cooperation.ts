// Which properties need a server's cooperation (the probe tools, docs/probe-tools.md) and which judge any server from
// what a client sees alone: status codes, event-ID ownership across sessions and streams, well-formed messages, hangs,
// whether a call's stream begins with a priming event (a call of a tool the server lacks still gets an answer, on a
// stream when the server streams its answers), and whether a server closing a call's connection before answering it
// sent a retry field first (read from the JSON-RPC responses by request ID, the stream's events and resets), the
// status a request with an unsupported MCP-Protocol-Version gets, and the headers and statuses of the 2026-07-28
// revision (no Mcp-Session-Id on a modern answer; 405 for a GET or DELETE to a modern-only endpoint). Between the two:
// properties judged from the provenance of results alone (the session and the call a result belongs to), which a
// server's own echo tool gives when each call carries a marker (echo-marker.ts).

import { PROPERTY_NAMES, type PropertyName } from '../../properties/names.ts';

/** Properties judged on any server, probe tools or not: they need no provenance in the messages. */
export const COOPERATION_FREE: readonly PropertyName[] = [
  'status-codes',
  'no-cross-session-delivery',
  'no-cross-stream-replay',
  'well-formed-messages',
  'no-hang',
  'priming-event',
  'retry-before-close',
  'unsupported-version-400',
  'modern-exchange-stateless',
  'modern-only-405',
];

/**
 * Properties judged, besides those, on a server whose calls go through its own echo tool with a marker: they read only
 * which call and which session (none, for a 2026-07-28 request) a result belongs to, and the marker carries both.
 */
export const MARKER_JUDGED: readonly PropertyName[] = ['era-isolation', 'modern-exchange-own-messages'];

/**
 * What a judged property cannot see without the probe tools: the half of it that rests on what the tool itself
 * saw. Printed beside the judged list, so a pass is read as what it covers.
 */
export const PARTLY_JUDGED_WITHOUT_PROBE: readonly { readonly name: PropertyName; readonly judged: string; readonly not: string }[] = [
  {
    name: 'modern-exchange-stateless',
    judged: 'the answers (no Mcp-Session-Id on a 2026-07-28 response)',
    not: 'whether the tool of a 2026-07-28 request ran in a session, which only the probe tools report',
  },
];

/** Why a property is not judged on a server without the probe tools. */
export const NOT_JUDGED_WITHOUT_PROBE =
  'needs the probe tools: its judgement rests on the provenance (session, call, execution, position) that only they put in the messages';

/** Why a property is not judged on a server called through its echo tool. */
export const NOT_JUDGED_THROUGH_ECHO =
  'needs the probe tools: its judgement rests on what a marker does not carry (the executions of a tool, the position of a message among a call\'s)';

/**
 * Properties never judged over the wire, whatever the server lists, and why. A 2026-07-28 disconnect cancels a tool
 * inside the server, which tells the simulator through the control endpoint (docs/probe-tools.md, `cancelled`); a step
 * the simulator hands the tool meanwhile crosses that report on its way, and reads as a step taken after the
 * cancellation, which is what disconnect-stops-work judges.
 */
export const NEVER_JUDGED_OVER_THE_WIRE: readonly { readonly name: PropertyName; readonly why: string }[] = [
  { name: 'disconnect-stops-work', why: 'a step handed to a tool while the server was cancelling it crosses the cancellation on its way, so a step after a cancellation is not told from one before it over the wire' },
];

/** What a server offers to judge by: the probe tools, an echo tool the calls go through with a marker, or neither. */
export interface Cooperation {
  readonly probe: boolean;
  readonly echo?: boolean;
}

/** The properties judged on a server that offers `cooperation`, whatever is asked for. */
export function judgeable(cooperation: Cooperation): readonly PropertyName[] {
  if (cooperation.probe) return PROPERTY_NAMES;
  return cooperation.echo === true ? [...COOPERATION_FREE, ...MARKER_JUDGED] : COOPERATION_FREE;
}

/** The properties to check on a server: the requested ones (default all), less those it cannot be judged on. */
export function judgedProperties(requested: readonly PropertyName[] | undefined, cooperation: Cooperation): PropertyName[] {
  const can = judgeable(cooperation);
  return (requested ?? PROPERTY_NAMES).filter((name) => !NEVER_JUDGED_OVER_THE_WIRE.some((never) => never.name === name) && can.includes(name));
}

// Which properties need a server's cooperation (the probe tools, docs/probe-tools.md) and which judge any server from
// what a client sees alone: status codes, event-ID ownership across sessions and streams, well-formed messages, hangs,
// whether a call's stream begins with a priming event (a call of a tool the server lacks still gets an answer, on a
// stream when the server streams its answers), and whether a server closing a call's connection before answering it
// sent a retry field first (read from the JSON-RPC responses by request ID, the stream's events and resets), and the
// status a request with an unsupported MCP-Protocol-Version gets.

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
];

/** Why a property is not judged on a server without the probe tools. */
export const NOT_JUDGED_WITHOUT_PROBE =
  'needs the probe tools: its judgement rests on the provenance (session, call, execution, position) that only they put in the messages';

/**
 * Properties never judged over the wire, whatever the server lists, and why. A 2026-07-28 disconnect cancels a tool
 * inside the server, which tells the simulator through the control endpoint (docs/probe-tools.md, `cancelled`); a step
 * the simulator hands the tool meanwhile crosses that report on its way, and reads as a step taken after the
 * cancellation, which is what disconnect-stops-work judges.
 */
export const NEVER_JUDGED_OVER_THE_WIRE: readonly { readonly name: PropertyName; readonly why: string }[] = [
  { name: 'disconnect-stops-work', why: 'a step handed to a tool while the server was cancelling it crosses the cancellation on its way, so a step after a cancellation is not told from one before it over the wire' },
];

/** The properties to check on a server: the requested ones (default all), less those it cannot be judged on. */
export function judgedProperties(requested: readonly PropertyName[] | undefined, options: { probe: boolean }): PropertyName[] {
  const wanted = (requested ?? PROPERTY_NAMES).filter((name) => !NEVER_JUDGED_OVER_THE_WIRE.some((never) => never.name === name));
  return options.probe ? wanted : wanted.filter((name) => COOPERATION_FREE.includes(name));
}

// The simulator's properties as check-store reports them end to end: each one's severity (from its source) and, for
// a finding the store causes, one sentence on what the store did wrong.

import { severityOf } from '../properties/finding-weight.ts';
import { type PropertyName, isPropertyName } from '../properties/index.ts';
import type { Severity } from '../properties/severity.ts';

/** What check-store says of each simulator property when the store, not the transport, violates it. */
interface EndToEndReading {
  /** One sentence: what the store did wrong, as a server author reads it. */
  readonly storeDid: string;
}

/**
 * The severity is the property's own (`resumecheck properties`, properties/severity.ts), read from its source: this
 * table only says what the store did. A property it does not name still gets its own severity.
 */
const READINGS: Readonly<Partial<Record<PropertyName, EndToEndReading>>> = {
  'no-cross-session-delivery': { storeDid: "The store's replay delivered an event of another session to this session's connection (MCP: MUST NOT replay messages of a different stream)." },
  'no-cross-stream-replay': { storeDid: "The store's replay delivered an event of another stream onto the resumed one (MCP: MUST NOT replay messages that would have been delivered on a different stream)." },
  'status-codes': { storeDid: "The store's answers made the transport reply with a status MCP does not allow here." },
  'well-formed-messages': { storeDid: 'The store gave the transport an event the client cannot read as an SSE JSON-RPC message.' },
  'result-to-its-request': { storeDid: 'The store replayed a result to a connection of another request (seed 000: a replayed result credited to a new call with the same ID).' },
  'exactly-once-execution': { storeDid: 'With this store a tool call ran twice (seed 000: non-idempotent tools execute exactly once).' },
  'in-order-per-stream': { storeDid: "The store's replay delivered a stream's events out of their order." },
  'no-redelivery': { storeDid: "The store's replay delivered again an event the client already had (it replayed the cursor or before it)." },
  'no-lost-result': { storeDid: 'With this store a result the client resumed for never arrived (MCP: the SSE stream SHOULD eventually include the response).' },
  'no-lost-notification': { storeDid: 'With this store a notification sent on the standalone stream never reached the client that resumed it.' },
  'no-silent-gap': { storeDid: "The store's replay skipped events without the client being told (seed 004: signal the gap)." },
  'no-hang': { storeDid: 'With this store a resumed connection stayed open with nothing left to send.' },
  'no-cross-epoch-replay': { storeDid: 'The store replayed an event from before a restart into a new session (seed 004: never reuse an ID across a session reincarnation).' },
};

/** The severity of a simulator property as check-store reports it: the property's own; a name it does not know is a failure. */
export function endToEndSeverity(property: string): Severity {
  return isPropertyName(property) ? severityOf(property) : 'failure';
}

/** One sentence on what the store did wrong, for a store-caused end-to-end finding of `property`. */
export function endToEndStoreDid(property: string): string {
  return READINGS[property as PropertyName]?.storeDid ?? `The store made the transport violate ${property}.`;
}

// The contract an SDK EventStore must keep, property by property: a name, one statement, and why it matters to
// the transport that calls the store. The contract phase judges every run against all of them.

import type { Severity } from '../properties/severity.ts';

/** The names of the contract properties, in the order violations are reported. */
export const CONTRACT_PROPERTY_NAMES = [
  'calls-settle',
  'event-ids-unique',
  'event-ids-unique-across-sessions',
  'session-isolation',
  'unknown-cursor-yields-nothing',
  'no-silent-skip',
  'replay-exact',
  'resumes-within-window',
] as const;

/** One contract property's name. */
export type ContractPropertyName = (typeof CONTRACT_PROPERTY_NAMES)[number];

/**
 * How much a violation weighs, following its source (properties/severity.ts, the one vocabulary): an MCP MUST (or
 * what the SDK transport needs of every store to work at all) is a failure; an MCP SHOULD is a warning, failing the
 * check only with `--strict`; a seed's advice is advice, failing it only with `--strict=advice`.
 */
export type { Severity } from '../properties/severity.ts';

/** A property of the EventStore contract. */
export interface ContractProperty {
  readonly name: ContractPropertyName;
  /** One sentence: what must hold. */
  readonly statement: string;
  /** Why the transport needs it. */
  readonly why: string;
  /** The specification sentence, SDK contract or seed passage it comes from. */
  readonly source: string;
  readonly severity: Severity;
}

/** Said wherever cross-session isolation is reported with `--shared`. */
export const SHARED_ISOLATION_NOTE =
  'with --shared one store instance serves every session and no EventStore method is told the session, so any store that replays at all fails session isolation once a session presents another session\'s cursor (or two sessions share the standalone stream ID "_GET_stream"): give each session its own store (the factory is called with context.sessionId), scoped by session';

/** Every contract property, in report order. */
export const CONTRACT_PROPERTIES: readonly ContractProperty[] = [
  {
    name: 'calls-settle',
    statement: 'Every storeEvent, getStreamIdForEventId and replayEventsAfter call settles (resolves or rejects) once the send callbacks it awaits have returned.',
    why: 'The transport awaits each call while handling a request: a call that never settles hangs that request for good.',
    source: 'The SDK transport awaits every EventStore call while it handles a request (webStandardStreamableHttp.js).',
    severity: 'failure',
  },
  {
    name: 'event-ids-unique',
    statement:
      'storeEvent resolves to a non-empty string that no other storeEvent call of the same session got, on any of its streams, also while calls overlap; a session ID that an earlier incarnation issued counts as the same session (its old cursors must not name new events).',
    why: 'MCP: event IDs MUST be globally unique across all streams within a session; a repeated ID makes a cursor name two positions.',
    source: 'MCP transports: event IDs "MUST be globally unique across all streams within that session".',
    severity: 'failure',
  },
  {
    name: 'event-ids-unique-across-sessions',
    statement: 'storeEvent resolves to an ID no call of another session got (IDs unique within their session are all MCP requires; this is advice).',
    why: 'An ID that names a position in two sessions is harmless to a store scoped by session, but a store or proxy that looks events up by ID alone then has two candidates.',
    source: 'Seed 000: "Embed a stream generation (epoch) into the event ID namespace" (advice; MCP requires uniqueness within a session only).',
    severity: 'advice',
  },
  {
    name: 'session-isolation',
    statement: 'A replay never sends an event that another session stored, whatever cursor it is given.',
    why: "Seed 004: physical presence in a buffer is not authorisation to deliver; a proxy or attacker can present another session's cursor.",
    source: 'MCP transports: the server "MUST NOT replay messages that would have been delivered on a different stream"; another session\'s stream is one.',
    severity: 'failure',
  },
  {
    name: 'unknown-cursor-yields-nothing',
    statement:
      "A cursor the session was never sent (a random string, a real ID with one character changed, an ID issued before a restart, another session's ID) makes the store send nothing and name none of the session's streams; throwing or returning without sending is fine.",
    why: 'A forged or stale cursor must not open any stream: a replay of it delivers events the client never asked for, and a stream it names is handed to the connection.',
    source: 'Seed 004: "Physical presence in a buffer is not authorization to deliver"; seed 000: a cursor is meaningful only to the session that was sent it.',
    severity: 'advice',
  },
  {
    name: 'no-silent-skip',
    statement:
      'A cursor whose following events the store no longer holds is refused (replayEventsAfter throws, or getStreamIdForEventId returns undefined): a replay never returns having sent only a later part of what followed the cursor.',
    why: 'The SDK has no way to signal a gap: a replay that skips events loses them without anyone knowing (seed 004: never skip silently).',
    source: 'Seed 004: "start fresh and signal a gap"; "never skip silently".',
    severity: 'advice',
  },
  {
    name: 'replay-exact',
    statement:
      "For a cursor its own session received, replayEventsAfter sends exactly the events stored on the cursor's stream strictly after it, in the order their storeEvent calls resolved, each once, payloads deep-equal, and returns that stream's ID (getStreamIdForEventId, if present, names it too); events stored while the replay runs may follow, in order. A refusal instead is judged by resumes-within-window.",
    why: 'The transport writes the replayed events to the resumed connection and registers it under the returned stream ID: anything else is a lost, duplicated, reordered or misdirected message.',
    source: 'MCP transports: the server MAY replay the messages "that would have been sent after the last event ID" on the disconnected stream and "MUST NOT replay messages that would have been delivered on a different stream"; the transport registers the connection under the returned stream ID.',
    severity: 'failure',
  },
  {
    name: 'resumes-within-window',
    statement:
      "A cursor its own session received, on an open stream of the current incarnation with at most context.windowEventsMax events stored after it, is resumed, not refused (the checker's expected retention; --window sets it).",
    why: 'A refusal is safe (the transport answers 400 and the client starts afresh) but the client loses the events it missed: retention shorter than what the server promises its clients is worth knowing.',
    source: 'Seed 000: "Live session + cursor of that session, in an open stream, inside the retained window -> resume"; MCP lets the server replay ("MAY"), so a refusal is advice, not a failure.',
    severity: 'advice',
  },
];

/** A contract property by name. */
export function contractProperty(name: ContractPropertyName): ContractProperty {
  const property = CONTRACT_PROPERTIES.find((candidate) => candidate.name === name);
  if (property === undefined) throw new Error(`assertion: unknown contract property ${name}`);
  return property;
}

/** The severity of a contract property. */
export function contractSeverity(name: ContractPropertyName): Severity {
  return contractProperty(name).severity;
}

// Event IDs of the decision core: every ID names the server epoch, the session, the stream and the
// sequence number it was issued for, so a cursor can be checked against all four before anything is replayed.

/** The parts an event ID encodes. Indexes are the core's own numbering, never a client's. */
export interface EventIdParts {
  /** The server incarnation that issued the ID (an opaque token, unique per incarnation). */
  readonly epoch: string;
  /** The session's index within its epoch (1-based). */
  readonly sessionIndex: number;
  /** The stream's index within its session (1-based). */
  readonly streamIndex: number;
  /** The event's position within its stream (1-based). */
  readonly seq: number;
}

/** Why a string is not an event ID of this core. */
export type EventIdMalformation = 'empty' | 'too-long' | 'shape' | 'epoch' | 'number';

/** The result of parsing a cursor: never an exception. */
export type ParsedEventId =
  | { readonly ok: true; readonly parts: EventIdParts }
  | { readonly ok: false; readonly malformation: EventIdMalformation };

/** Longest string the parser looks at; longer cursors are refused before any work is done on them. */
export const EVENT_ID_LENGTH_MAX = 200;
const EPOCH_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
// Positive decimal without leading zeros, at most 15 digits so it stays a safe integer.
const INDEX_PATTERN = /^[1-9][0-9]{0,14}$/;

/** True when `epoch` may be used as an epoch token (it is embedded in IDs verbatim). */
export function isValidEpochToken(epoch: string): boolean {
  return EPOCH_PATTERN.test(epoch);
}

/** Formats the ID of one event. The inverse of {@link parseEventId}. */
export function formatEventId(parts: EventIdParts): string {
  return `${parts.epoch}.${parts.sessionIndex}.${parts.streamIndex}.${parts.seq}`;
}

/** Parses any string a client may present as `Last-Event-ID`. Total: never throws. */
export function parseEventId(text: unknown): ParsedEventId {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, malformation: 'empty' };
  if (text.length > EVENT_ID_LENGTH_MAX) return { ok: false, malformation: 'too-long' };
  const fields = text.split('.');
  if (fields.length !== 4) return { ok: false, malformation: 'shape' };
  const [epoch, session, stream, seq] = fields as [string, string, string, string];
  if (!EPOCH_PATTERN.test(epoch)) return { ok: false, malformation: 'epoch' };
  if (!INDEX_PATTERN.test(session) || !INDEX_PATTERN.test(stream) || !INDEX_PATTERN.test(seq)) {
    return { ok: false, malformation: 'number' };
  }
  return {
    ok: true,
    parts: { epoch, sessionIndex: Number(session), streamIndex: Number(stream), seq: Number(seq) },
  };
}

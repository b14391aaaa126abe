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

/** True when `epoch` may be used as an epoch token (it is embedded in IDs verbatim). */
export function isValidEpochToken(epoch: string): boolean {
  return EPOCH_PATTERN.test(epoch);
}

/** Formats the ID of one event. The inverse of {@link parseEventId}. */
export function formatEventId(parts: EventIdParts): string {
  return eventIdPrefix(parts) + parts.seq;
}

/** What every event ID of one stream starts with; the sequence number follows it. */
export function eventIdPrefix(parts: Omit<EventIdParts, 'seq'>): string {
  return `${parts.epoch}.${parts.sessionIndex}.${parts.streamIndex}.`;
}

/** Parses any string a client may present as `Last-Event-ID`. Total: never throws. */
export function parseEventId(text: unknown): ParsedEventId {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, malformation: 'empty' };
  if (text.length > EVENT_ID_LENGTH_MAX) return { ok: false, malformation: 'too-long' };
  // Scanned by hand rather than split and matched: this runs on every resume the simulator makes.
  const first = text.indexOf('.');
  const second = first < 0 ? -1 : text.indexOf('.', first + 1);
  const third = second < 0 ? -1 : text.indexOf('.', second + 1);
  if (third < 0 || text.indexOf('.', third + 1) >= 0) return { ok: false, malformation: 'shape' };
  if (!EPOCH_PATTERN.test(text.slice(0, first))) return { ok: false, malformation: 'epoch' };
  const sessionIndex = indexAt(text, first + 1, second);
  const streamIndex = indexAt(text, second + 1, third);
  const seq = indexAt(text, third + 1, text.length);
  if (sessionIndex === 0 || streamIndex === 0 || seq === 0) return { ok: false, malformation: 'number' };
  return { ok: true, parts: { epoch: text.slice(0, first), sessionIndex, streamIndex, seq } };
}

/** The positive decimal in text[start, end): no sign, no leading zero, at most 15 digits; 0 when it is not one. */
function indexAt(text: string, start: number, end: number): number {
  const length = end - start;
  if (length < 1 || length > 15 || text.charCodeAt(start) === 48) return 0;
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return 0;
    value = value * 10 + digit;
  }
  return value;
}

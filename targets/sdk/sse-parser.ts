// An incremental parser of the SSE bytes the SDK's transport writes, into the simulator's frames. Frames are
// reported as written: a priming event (an ID with empty data) is a frame too, unlike in a browser.

import type { Frame, JsonRpcMessage } from '../target.ts';

/** The longest buffered partial frame accepted, in characters; the SDK never writes one this large. */
const PENDING_CHARS_MAX = 1 << 22;

/** Parses a stream of SSE text chunks into frames. */
export interface SseParser {
  /** Feeds the next chunk of text; returns the frames it completed, in order. */
  push(text: string): Frame[];
  /** True when text of an unfinished frame is buffered (a stream that ends here ends mid-frame). */
  readonly pending: boolean;
}

function parseData(lines: readonly string[]): JsonRpcMessage | null {
  if (lines.length === 0) return null;
  const text = lines.join('\n');
  if (text === '') return null;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`assertion: SSE data is not a JSON object: ${text.slice(0, 200)}`);
  }
  // Passed through as written: a stored `{}` (the SDK's priming placeholder) replayed as a message stays `{}`.
  return value as JsonRpcMessage;
}

function parseBlock(block: string): Frame | null {
  let eventId: string | null = null;
  let event: string | null = null;
  let retryMs: number | null = null;
  const dataLines: string[] = [];
  let fields = 0;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    fields += 1;
    switch (name) {
      case 'id':
        eventId = value;
        break;
      case 'event':
        event = value === 'message' ? null : value;
        break;
      case 'data':
        dataLines.push(value);
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) retryMs = Number(value);
        break;
      default:
        fields -= 1;
    }
  }
  if (fields === 0) return null;
  return { eventId, event, data: parseData(dataLines), retryMs };
}

/** Creates a parser for one response body. */
export function createSseParser(): SseParser {
  let buffer = '';
  return {
    get pending() {
      return buffer.trim() !== '';
    },
    push(text) {
      // The SDK separates lines with LF only; CR is not handled.
      buffer += text;
      if (buffer.length > PENDING_CHARS_MAX) throw new Error(`assertion: SSE frame longer than ${PENDING_CHARS_MAX} characters`);
      const frames: Frame[] = [];
      for (let boundary = buffer.indexOf('\n\n'); boundary >= 0; boundary = buffer.indexOf('\n\n')) {
        const frame = parseBlock(buffer.slice(0, boundary));
        buffer = buffer.slice(boundary + 2);
        if (frame !== null) frames.push(frame);
      }
      return frames;
    },
  };
}

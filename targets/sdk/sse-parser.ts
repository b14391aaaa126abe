// An incremental parser of SSE bytes (already decoded to text) into the simulator's frames. Frames are reported as
// written: a priming event (an ID with empty data) is a frame too, unlike in a browser. Lines may end with LF, CR or
// CRLF (the SSE grammar allows all three, and a server in another language may use any), split anywhere across chunks.

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

/** What to do with a `data:` field that is no JSON object. */
export interface SseParserOptions {
  /**
   * `assert` (default, for servers resumecheck runs in process): a harness bug, thrown. `report` (for a server over the
   * wire, whose bytes are its own): the frame carries `{ notJson: text }`, which well-formed-messages then reports.
   */
  readonly malformedData?: 'assert' | 'report';
}

function parseData(lines: readonly string[], malformedData: 'assert' | 'report'): JsonRpcMessage | null {
  if (lines.length === 0) return null;
  const text = lines.join('\n');
  if (text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (malformedData === 'report') return { notJson: text.slice(0, 200) } as unknown as JsonRpcMessage;
    throw error;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (malformedData === 'report') return { notJson: text.slice(0, 200) } as unknown as JsonRpcMessage;
    throw new Error(`assertion: SSE data is not a JSON object: ${text.slice(0, 200)}`);
  }
  // Passed through as written: a stored `{}` (the SDK's priming placeholder) replayed as a message stays `{}`.
  return value as JsonRpcMessage;
}

function parseBlock(lines: readonly string[], malformedData: 'assert' | 'report'): Frame | null {
  let eventId: string | null = null;
  let event: string | null = null;
  let retryMs: number | null = null;
  const dataLines: string[] = [];
  let fields = 0;
  for (const line of lines) {
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
  return { eventId, event, data: parseData(dataLines, malformedData), retryMs };
}

const LF = 10;
const CR = 13;

/** Creates a parser for one response body. */
export function createSseParser(options: SseParserOptions = {}): SseParser {
  const malformedData = options.malformedData ?? 'assert';
  /** The unfinished line at the end of the text seen so far. */
  let partial = '';
  /** The lines of the event being read (a blank line ends it). */
  let lines: string[] = [];
  let linesChars = 0;
  /** The previous chunk ended with CR: an LF opening this one belongs to that line end (CRLF split in two). */
  let afterCr = false;
  let first = true;
  return {
    get pending() {
      return partial !== '' || lines.some((line) => line !== '' && !line.startsWith(':'));
    },
    push(text) {
      const frames: Frame[] = [];
      let start = 0;
      // The SSE grammar lets a stream open with a byte-order mark, which is not part of the first field's name.
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) start = 1;
      }
      if (afterCr && text.length > 0) {
        afterCr = false;
        if (text.charCodeAt(start) === LF) start += 1;
      }
      for (let index = start; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        if (code !== LF && code !== CR) continue;
        const line = partial + text.slice(start, index);
        partial = '';
        if (code === CR) {
          if (index + 1 < text.length) {
            if (text.charCodeAt(index + 1) === LF) index += 1;
          } else {
            afterCr = true;
          }
        }
        start = index + 1;
        if (line === '') {
          const frame = parseBlock(lines, malformedData);
          lines = [];
          linesChars = 0;
          if (frame !== null) frames.push(frame);
        } else {
          lines.push(line);
          linesChars += line.length;
        }
      }
      partial += text.slice(start);
      if (partial.length + linesChars > PENDING_CHARS_MAX) throw new Error(`assertion: SSE frame longer than ${PENDING_CHARS_MAX} characters`);
      return frames;
    },
  };
}

// The SSE parser under every line end the grammar allows (LF, CR, CRLF) and a chunk split at every position.

import { describe, expect, it } from 'vitest';
import type { Frame } from '../target.ts';
import { createSseParser } from './sse-parser.ts';

const EVENTS = [
  ['id: e1', 'data:'],
  [': a comment', 'id: e2', 'event: message', 'data: {"jsonrpc":"2.0","method":"notifications/progress"}'],
  ['id: e3', 'data: {"jsonrpc":"2.0",', 'data: "id":1,"result":{}}'],
  ['retry: 1000'],
  ['event: reset', 'data: {"jsonrpc":"2.0","method":"x"}'],
];

const EXPECTED: Frame[] = [
  { eventId: 'e1', event: null, data: null, retryMs: null },
  { eventId: 'e2', event: null, data: { jsonrpc: '2.0', method: 'notifications/progress' }, retryMs: null },
  { eventId: 'e3', event: null, data: { jsonrpc: '2.0', id: 1, result: {} }, retryMs: null },
  { eventId: null, event: null, data: null, retryMs: 1000 },
  { eventId: null, event: 'reset', data: { jsonrpc: '2.0', method: 'x' }, retryMs: null },
];

function streamText(eol: string): string {
  return EVENTS.map((lines) => lines.join(eol) + eol + eol).join('');
}

function parseChunks(chunks: readonly string[]): { frames: Frame[]; pending: boolean } {
  const parser = createSseParser();
  const frames = chunks.flatMap((chunk) => parser.push(chunk));
  return { frames, pending: parser.pending };
}

describe('SSE parser', () => {
  for (const [name, eol] of [['LF', '\n'], ['CR', '\r'], ['CRLF', '\r\n']] as const) {
    it(`parses ${name} line ends in one chunk`, () => {
      expect(parseChunks([streamText(eol)])).toEqual({ frames: EXPECTED, pending: false });
    });

    it(`parses ${name} line ends split into two chunks at every position`, () => {
      const text = streamText(eol);
      for (let at = 0; at <= text.length; at += 1) {
        expect(parseChunks([text.slice(0, at), text.slice(at)]), `split at ${at}`).toEqual({ frames: EXPECTED, pending: false });
      }
    });

    it(`parses ${name} line ends fed one character at a time`, () => {
      expect(parseChunks([...streamText(eol)])).toEqual({ frames: EXPECTED, pending: false });
    });
  }

  it('takes a CR, then an LF opening the next chunk, as one line end (not an empty line ending the event)', () => {
    const { frames } = parseChunks(['id: a\r', '\ndata: {"jsonrpc":"2.0","method":"m"}\r\n\r\n']);
    expect(frames).toEqual([{ eventId: 'a', event: null, data: { jsonrpc: '2.0', method: 'm' }, retryMs: null }]);
  });

  it('mixes line ends within one stream', () => {
    const { frames } = parseChunks(['id: a\rdata:\n\r\nid: b\r\ndata:\r\r']);
    expect(frames.map((frame) => frame.eventId)).toEqual(['a', 'b']);
  });

  it('ignores a byte-order mark opening the stream', () => {
    expect(parseChunks(['\uFEFFid: a\n\n']).frames.map((frame) => frame.eventId)).toEqual(['a']);
  });

  it('says a stream ended mid-frame is pending, and one that ended after a comment is not', () => {
    expect(parseChunks(['id: a\ndata:']).pending).toBe(true);
    expect(parseChunks(['id: a\n']).pending).toBe(true);
    expect(parseChunks([': keep-alive\n']).pending).toBe(false);
  });

  it('asserts on data that is no JSON object by default, and reports it as such when asked', () => {
    expect(() => createSseParser().push('data: nope\n\n')).toThrow();
    const frames = createSseParser({ malformedData: 'report' }).push('data: nope\n\ndata: [1]\n\n');
    expect(frames.map((frame) => frame.data)).toEqual([{ notJson: 'nope' }, { notJson: '[1]' }]);
  });
});

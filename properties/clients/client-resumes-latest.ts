// A client resumes each broken stream with the latest event ID it received on that stream, and never drops it.

import type { ClientProperty } from './client-property.ts';
import { SESSION_REVISIONS } from './client-property.ts';

/** Resumption with the latest cursor of the stream, and no cursorless GET while a resumable stream waits. */
export const clientResumesLatest: ClientProperty = {
  name: 'client-resumes-latest',
  statement:
    'A GET with Last-Event-ID carries the latest event ID the client received on that stream; a GET without one is not sent in place of resuming a broken stream that received an event ID.',
  source: {
    kind: 'spec',
    revisions: ['2025-11-25'],
    page: 'basic/transports',
    section: 'Resumability and Redelivery',
    quote: 'If the client wishes to resume after a disconnection (whether due to network failure or server-initiated closure), it SHOULD issue an HTTP GET to the MCP endpoint, and include the Last-Event-ID header to indicate the last event ID it received.',
    keyword: 'SHOULD',
  },
  background: '2025-03-26 and 2025-06-18: "after a broken connection"; seed 000: a cursor names a position in one stream.',
  severity: 'warning',
  revisions: SESSION_REVISIONS,
  kind: 'safety',
  onRequest(world, exchange) {
    if (exchange.method !== 'GET') return null;
    const cursor = exchange.lastEventId;
    if (cursor !== null) {
      const key = world.eventStreams.get(cursor);
      if (key === undefined) return `GET #${exchange.index} resumes with Last-Event-ID ${cursor}, an event ID the client never received`;
      const stream = world.streams.get(key)!;
      if (stream.eventIdLatest !== cursor) {
        return `GET #${exchange.index} resumes stream ${key} with Last-Event-ID ${cursor}, but the latest event ID the client received on it is ${stream.eventIdLatest}`;
      }
      return null;
    }
    for (const stream of world.streams.values()) {
      if (stream.sessionId !== exchange.sessionId || !stream.broken || stream.answered || stream.eventIdLatest === null) continue;
      return `GET #${exchange.index} carries no Last-Event-ID while stream ${stream.key} (latest event ID ${stream.eventIdLatest}) broke before its response and was not resumed: the client dropped its resumption token`;
    }
    return null;
  },
};

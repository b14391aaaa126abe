// A client's reconnection attempts for one stream are bounded: no storm against a server that keeps refusing them.

import type { ClientProperty } from './client-property.ts';
import { SESSION_REVISIONS } from './client-property.ts';

/** Failed resumption attempts for one stream, in a row, beyond which the client is storming. */
export const RECONNECT_FAILURES_MAX = 5;

/** At most RECONNECT_FAILURES_MAX failed resumption attempts in a row per stream. */
export const clientReconnectsBounded: ClientProperty = {
  name: 'client-reconnects-bounded',
  statement: `A client gives up on a stream after at most ${RECONNECT_FAILURES_MAX} failed resumption attempts in a row (answered with an error status, or cut before a response).`,
  source: {
    kind: 'design',
    rule: 'a client gives up on a stream after a bounded number of failed resumption attempts in a row',
    reason: 'MCP sets no bound; field reports show clients storming servers that keep refusing them: rmcp #958 (reconnecting at 1 Hz forever), python-sdk #3257 and #3307; the SDKs\' own default is maxRetries 2',
  },
  severity: 'advice',
  revisions: SESSION_REVISIONS,
  kind: 'safety',
  onResponse(world, exchange) {
    if (exchange.method !== 'GET' || exchange.lastEventId === null) return null;
    const key = world.eventStreams.get(exchange.lastEventId);
    if (key === undefined) return null;
    const stream = world.streams.get(key)!;
    if (stream.resumeFailures <= RECONNECT_FAILURES_MAX) return null;
    return `stream ${key}: ${stream.resumeFailures} resumption attempts in a row failed (the last #${exchange.index}, status ${exchange.status === 0 ? 'none: cut' : exchange.status}) and the client keeps trying`;
  },
};

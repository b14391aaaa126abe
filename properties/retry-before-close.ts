// A 2025-11-25 server that closes a connection before its SSE stream is over (polling: the client is to reconnect
// and resume) has sent the client a `retry:` field first, so the client knows when to come back. A SHOULD of
// 2025-11-25, judged where the server's initialize result gave 2025-11-25, at a close the server was asked for
// (serverClose). Not over the wire: there the server alone decides when to close, and the end of a connection does
// not say whether its stream is over (a JSON-RPC error answering the call ends it as well as a result does).
import { MODEL } from '../model/index.ts';
import { type Revision, hasPolling } from '../sim/config.ts';
import type { Property } from './property.ts';

export const retryBeforeClose: Property = {
  name: 'retry-before-close',
  statement: 'In a session whose initialize gave 2025-11-25, a server that closes a connection before its SSE stream is over has sent an event with a retry field on that stream first.',
  source: {
    kind: 'spec',
    revisions: ['2025-11-25'],
    page: 'basic/transports',
    section: 'Sending Messages to the Server',
    quote: 'If the server does close the connection prior to terminating the SSE stream, it SHOULD send an SSE event with a standard retry field before closing the connection.',
    keyword: 'SHOULD',
  },
  background:
    'New in 2025-11-25, with the server\'s licence to close a connection early (earlier revisions give none); the GET stream "SHOULD follow the same polling behavior as described for POST requests: sending a retry field". A retry field received earlier on the same stream counts (it sets the stream\'s reconnection time, and the sentence asks for one before the close, not on the closed connection). Judged at a close the server was asked for (the polling close: the SDKs\' closeSSEStream and closeStandaloneSSEStream); a restart, a cut, an expiry or a DELETE is no close of this kind. Not judged over the wire, where the server alone closes and an end does not say whether the stream is over. The SDK 1.32.2 transport sends its retry interval in the priming event of a POST stream only: its standalone GET stream has neither.',
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  keptAside: 'a server without a retry field on a stream it closes lacks one at every close of that kind: a run ending at the first would hide everything else it shows',
  revisions: ['2025-11-25'],
  onClose(world, connection) {
    if (connection.view < 0 || !hasPolling(connection.session?.negotiated as Revision)) return null;
    const view = world.views[connection.view]!;
    // An end the session's expiry or deletion caused while the close was asked for (a node catching up with the
    // store's news) ends the stream: it is no polling close.
    if (view.session.state !== MODEL.session.state.live) return null;
    // A retry field received earlier on the stream counts: it set the stream's reconnection time, and the sentence
    // asks for one "before closing the connection", not on it. A stream whose result the client has is over.
    if (view.retried || view.outcome === 'result') return null;
    const stream = view.call === null ? 'the standalone stream' : `${view.call.id}'s stream`;
    return `the server closed connection ${connection.index} (${connection.purpose}) with ${stream} not over, and no event with a retry field had reached the client on that stream`;
  },
};

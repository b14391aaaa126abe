// A 2025-11-25 server that closes a connection before its SSE stream is over (polling: the client is to reconnect
// and resume) has sent the client a `retry:` field first, so the client knows when to come back. A SHOULD of
// 2025-11-25, judged where the server's initialize result gave 2025-11-25: at a close the server was asked for
// (serverClose, in process), and where a server polls on its own (as over the wire): it ended a call's connection
// with the call unanswered there, no reset and no retry field before (StreamView.unretriedEnd), and a resume of the
// stream then carried the call's answer, so the stream was not over when the connection ended.
import { MODEL } from '../model/index.ts';
import { hasPolling } from '../sim/config.ts';
import { isResponse } from '../sim/tools.ts';
import type { Property } from './property.ts';

const live = MODEL.session.state.live;

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
    'New in 2025-11-25, with the server\'s licence to close a connection early (earlier revisions give none); the GET stream "SHOULD follow the same polling behavior as described for POST requests: sending a retry field". A retry field received earlier on the same stream counts (it sets the stream\'s reconnection time, and the sentence asks for one before the close, not on the closed connection). Judged at a close the server was asked for (the polling close: the SDKs\' closeSSEStream and closeStandaloneSSEStream), and, over the wire or wherever the server closes on its own, at an end of a call\'s connection with no JSON-RPC response of any request on it, no reset, the session live and no other request being handled, once a resume of that stream carries the call\'s answer (the proof that the stream was not over); a restart, a cut, an expiry, a DELETE or a resume taking the stream over is no close of this kind. The SDK transports (1.32.2 and 2.4.0) send their retry interval in the priming event of a POST stream only: their standalone GET stream has neither.',
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  keptAside: 'a server without a retry field on a stream it closes lacks one at every close of that kind: a run ending at the first would hide everything else it shows',
  revisions: ['2025-11-25'],
  onClose(world, connection) {
    if (connection.view < 0 || !hasPolling(connection.session?.negotiated)) return null;
    const view = world.views[connection.view]!;
    // An end the session's expiry or deletion caused while the close was asked for (a node catching up with the
    // store's news) ends the stream: it is no polling close.
    if (view.session.state !== live) return null;
    // A retry field received earlier on the stream counts: it set the stream's reconnection time, and the sentence
    // asks for one "before closing the connection", not on it. A stream whose result the client has is over.
    if (view.retried || view.outcome === 'result') return null;
    const stream = view.call === null ? 'the standalone stream' : `${view.call.id}'s stream`;
    return `the server closed connection ${connection.index} (${connection.purpose}) with ${stream} not over, and no event with a retry field had reached the client on that stream`;
  },
  onFrame(world, connection, frame) {
    // A server polling on its own (as over the wire): it ended a call's connection before answering the call there, with
    // no reset and no retry field on the stream before (StreamView.unretriedEnd), and now a resume of that stream
    // carries the call's response, so the stream was not over when the connection ended.
    if (connection.purpose !== 'resume' || connection.view < 0 || frame.data === null) return null;
    const view = world.views[connection.view]!;
    if (view.unretriedEnd < 0 || view.call === null || !hasPolling(view.session.negotiated)) return null;
    if (!isResponse(frame.data) || frame.data['id'] !== view.call.requestId) return null;
    const ended = world.connections[view.unretriedEnd]!;
    return {
      explanation: `the server ended connection ${ended.index} (${ended.purpose}) before answering ${view.call.id} there, with no reset and no event with a retry field on its stream before, and the stream went on: connection ${connection.index}, resuming it, carries the answer`,
      mechanism: 'ended early',
    };
  },
};

// A 2025-11-25 session's tool call answered with an SSE stream: the stream's first event is a priming event (an event
// ID and an empty data field), so the client has a cursor to resume with before any message arrives. A SHOULD of
// 2025-11-25, judged where the server's initialize result gave 2025-11-25 (a server may negotiate an older revision,
// which has no priming event), and kept aside: a server without it lacks it on every stream.
import { MODEL } from '../model/index.ts';
import { hasPolling } from '../sim/config.ts';
import type { ConnectionPurpose } from '../sim/world.ts';
import type { Frame } from '../targets/target.ts';
import type { Property } from './property.ts';

/**
 * The requests judged: a call's own POST, which starts its stream. A re-sent POST is not (a server may carry on the
 * stream the first one started, whose priming event the client has), nor is one reusing another call's request ID.
 */
const STARTS_A_STREAM: ConnectionPurpose = 'call';

/** True for a priming event: an event ID, an empty data field, the default event type. */
export function isPrimingEvent(frame: Frame): boolean {
  return frame.eventId !== null && frame.data === null && frame.event === null;
}

export const primingEvent: Property = {
  name: 'priming-event',
  statement: 'In a session whose initialize gave 2025-11-25, a tool call the server answers with an SSE stream gets a priming event (an event ID, empty data) as that stream\'s first event.',
  source: {
    kind: 'spec',
    revisions: ['2025-11-25'],
    page: 'basic/transports',
    section: 'Sending Messages to the Server',
    quote: 'The server SHOULD immediately send an SSE event consisting of an event ID and an empty data field in order to prime the client to reconnect (using that event ID as Last-Event-ID).',
    keyword: 'SHOULD',
  },
  background:
    'The sentence is new in 2025-11-25 ("If the server initiates an SSE stream"); 2025-06-18 has no priming event, and 2026-07-28 no resumption. The SDK 1.32.2 transport sends one only when it has an event store, and only to a client asking for 2025-11-25. Judged on a call\'s own POST: not on an initialize\'s stream (the version is known only from its result), nor on a re-sent POST (a server may carry on the stream the first one started).',
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  keptAside: 'a server without priming events lacks one on every stream: a run ending at the first would hide everything else it shows',
  revisions: ['2025-11-25'],
  onFrame(_world, connection, frame) {
    if (connection.framed || connection.purpose !== STARTS_A_STREAM || !hasPolling(connection.session?.negotiated)) return null;
    // A call answered with a JSON body (its result, no stream): the sentence is about an SSE stream the server starts.
    if (connection.state === MODEL.connection.state.answered) return null;
    if (isPrimingEvent(frame)) return null;
    const what = frame.data !== null ? (frame.eventId === null ? 'a message without an event ID' : `a message (event ${frame.eventId})`) : frame.event !== null ? `a ${frame.event} event` : 'an event without an ID';
    const mechanism = frame.data !== null ? 'a message first' : frame.event !== null ? `a ${frame.event} event first` : 'no event ID';
    return { explanation: `the SSE stream answering connection ${connection.index} (${connection.purpose}) began with ${what}, not a priming event`, mechanism };
  },
};

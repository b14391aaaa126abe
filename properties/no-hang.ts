// Liveness: no connection is left open on a stream that has nothing left to send.
import { isSettled } from '../sim/world.ts';
import { ALL_REVISIONS, type Property } from './property.ts';


export const noHang: Property = {
  name: 'no-hang',
  statement: 'Once the run settles, no connection stays open for a stream that has nothing left to send.',
  source: {
    kind: 'design',
    rule: 'once the run settles, no connection stays open for a stream that has nothing left to send',
    reason: 'a client waiting on such a connection never learns its stream is over; MCP says of a call\'s stream only "After the JSON-RPC response has been sent, the server SHOULD terminate the SSE stream", and nothing of a resumed connection with nothing to carry',
  },
  kind: 'liveness',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: ALL_REVISIONS,
  onFinish(world) {
    for (const index of world.attached) {
      const connection = world.connections[index]!;
      if (connection.view < 0) {
        return `connection ${connection.index} (${connection.purpose} with Last-Event-ID ${String(connection.lastEventId)}) stays open though it carries no stream of the client's`;
      }
      const view = world.views[connection.view]!;
      if (view.call !== null && isSettled(view.outcome)) {
        return `connection ${connection.index} of ${view.call.id} stays open after the client got its ${view.outcome}`;
      }
    }
    return null;
  },
};

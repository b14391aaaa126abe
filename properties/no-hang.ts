// Liveness: no connection is left open on a stream that has nothing left to send.
import { type SimConnection, type World, isSettled } from '../sim/world.ts';
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
        return {
          explanation: `connection ${connection.index} (${connection.purpose} with Last-Event-ID ${String(connection.lastEventId)}) stays open though it carries no stream of the client's`,
          mechanism: `${connection.purpose} of no stream, ${cursorWord(world, connection)}`,
        };
      }
      const view = world.views[connection.view]!;
      if (view.call !== null && isSettled(view.outcome)) {
        return {
          explanation: `connection ${connection.index} of ${view.call.id} stays open after the client got its ${view.outcome}`,
          // A call's own POST carries no cursor that matters (a stale one is ignored): the cursor tells resumptions apart.
          mechanism: connection.purpose === 'resume' ? `resume of a settled call, ${cursorWord(world, connection)}` : `${connection.purpose} of a settled call`,
        };
      }
    }
    return null;
  },
};

/**
 * The cursor a connection was opened with, in the words that tell its hangs apart: none, one the client never got
 * (or got in another session), the terminal event of a call's stream (its result), or an earlier event.
 */
function cursorWord(world: World, connection: SimConnection): string {
  const cursor = connection.lastEventId;
  if (cursor === null) return 'no cursor';
  const session = connection.session === null ? -1 : connection.session.index;
  if (!world.eventOwners.has(`${session}|${cursor}`)) return 'a cursor never delivered in its session';
  // Views are few (a handful of calls per run): the final check may look through them all.
  const terminal = world.views.some((view) => view.session === connection.session && view.terminalCursor !== null && view.terminalCursor.eventId === cursor);
  return terminal ? 'the cursor of a result' : 'an earlier cursor';
}

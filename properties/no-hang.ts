// Liveness: no connection is left open on a stream that has nothing left to send.
import { MODEL } from '../model/index.ts';
import type { Property } from './property.ts';

const attached = MODEL.connection.state.attached;

export const noHang: Property = {
  name: 'no-hang',
  statement: 'Once the run settles, no connection stays open for a stream that has nothing left to send.',
  source: 'DESIGN: "no hang (no stream left open with nothing left to send)"; a client waiting on such a connection never learns its stream is over.',
  kind: 'liveness',
  onFinish(world) {
    for (const connection of world.connections) {
      if (connection.state !== attached || connection.epoch !== world.epoch) continue;
      if (connection.view < 0) {
        return `connection ${connection.index} (${connection.purpose} with Last-Event-ID ${String(connection.lastEventId)}) stays open though it carries no stream of the client's`;
      }
      const view = world.views[connection.view]!;
      if (view.call !== null && view.outcome !== 'pending') {
        return `connection ${connection.index} of ${view.call.id} stays open after the client got its ${view.outcome}`;
      }
    }
    return null;
  },
};

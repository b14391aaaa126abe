// Liveness: once faults stop and clients resume with their latest cursors, every call is answered or reset.
import type { Property } from './property.ts';

export const noLostResult: Property = {
  name: 'no-lost-result',
  statement: 'Once faults stop and clients resume with their latest cursors, every call of a live session gets its result or an explicit reset.',
  source: 'Seed 000: "the ID was recognized; the stream was not resumable" (the lost result of "completed -> fresh"); MCP: "Disconnection SHOULD NOT be interpreted as the client cancelling its request."',
  kind: 'liveness',
  onFinish(world) {
    for (const view of world.views) {
      if (view.call === null || view.outcome !== 'pending') continue;
      return `${view.call.id} (${view.call.tool}, request ${view.call.requestId}, session ${view.session.id}) never got its result nor a reset, after the clients resumed with their latest cursors`;
    }
    return null;
  },
};

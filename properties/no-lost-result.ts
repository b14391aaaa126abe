// Liveness: once faults stop and clients resume with their latest cursors, every call is answered or reset.
import { isSettled } from '../sim/world.ts';
import { ALL_REVISIONS, type Property } from './property.ts';

export const noLostResult: Property = {
  name: 'no-lost-result',
  statement: 'Once faults stop and clients resume with their latest cursors, every call of a live session gets its result or an explicit reset (an error status is no reset: the client cannot tell a lost result from a failure).',
  source: 'Seed 000: "the ID was recognized; the stream was not resumable" (the lost result of "completed -> fresh"); MCP: "Disconnection SHOULD NOT be interpreted as the client cancelling its request."',
  kind: 'liveness',
  severity: 'warning',
  revisions: ALL_REVISIONS,
  onFinish(world) {
    for (const view of world.views) {
      if (view.call === null || isSettled(view.outcome)) continue;
      const how = view.outcome === 'refused' ? 'its requests were refused with an error (not a reset, not 404) and it' : 'it';
      return `${view.call.id} (${view.call.tool}, request ${view.call.requestId}, session ${view.session.id}): ${how} never got its result nor a reset, after the clients resumed with their latest cursors`;
    }
    return null;
  },
};

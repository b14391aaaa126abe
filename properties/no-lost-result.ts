// Liveness: once faults stop and clients resume with their latest cursors, every call of a legacy session is answered:
// its result, a reset, or an error status to its resume.
import { isSettled } from '../sim/world.ts';
import { LEGACY, type Property } from './property.ts';

export const noLostResult: Property = {
  name: 'no-lost-result',
  statement:
    'Once faults stop and clients resume with their latest cursors, every call of a live legacy session gets its result, a reset, or an error status to its resume: never silence.',
  source: {
    kind: 'spec',
    revisions: ['2025-11-25'],
    page: 'basic/transports',
    section: 'Sending Messages to the Server',
    quote: 'The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body.',
    keyword: 'SHOULD',
  },
  background: '2025-03-26 says it of "one JSON-RPC response per each JSON-RPC request"; legacy: "Disconnection SHOULD NOT be interpreted as the client cancelling its request." (2026-07-28 reverses it: a disconnect is the cancellation, so the property does not apply there.) An error answer to a resume is an answer: resumability is a MAY, and seed 004 names "a 404/409 that forces the client to re-initialize" as correct.',
  kind: 'liveness',
  severity: 'warning',
  underClientFault: 'triggered',
  // Not 2026-07-28: there a disconnect is the cancellation and the client re-issues the call as a new request.
  revisions: LEGACY,
  onFinish(world) {
    for (const view of world.views) {
      if (view.call === null || isSettled(view.outcome)) continue;
      // An error status to the resume is an answer: resumability is a MAY, a store may refuse a cursor it evicted (the
      // SDK can then only answer 500), and seed 004 names "a 404/409 that forces the client to re-initialize".
      if (view.outcome === 'refused') continue;
      // A 2026-07-28 call (no session, ID '') is re-issued, never resumed: not this property's.
      if (view.session.id === '') continue;
      return `${view.call.id} (${view.call.tool}, request ${view.call.requestId}, session ${view.session.id}) never got its result, a reset or an error status, after the clients resumed with their latest cursors`;
    }
    return null;
  },
};

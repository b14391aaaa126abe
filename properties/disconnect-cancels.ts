// 2026-07-28: a client disconnect cancels its request, and nothing more is sent for it on any connection (MUST NOT).
// Stopping the tool's work is the same sentence's SHOULD: disconnect-stops-work.
import { MODERN_CANCELLATION } from './source.ts';
import { MODERN, type Property, describeMessage } from './property.ts';

export const disconnectCancels: Property = {
  name: 'disconnect-cancels',
  statement:
    'When a 2026-07-28 exchange breaks before its result and the server is told, nothing more is sent for its request on any connection.',
  source: { ...MODERN_CANCELLATION, keyword: 'MUST NOT' },
  background: 'Same section: "Closing the SSE response stream MUST be treated by the server as cancellation of that request." Stopping the work is the SHOULD of the same sentence: disconnect-stops-work.',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: MODERN,
  onArrival(world, arrival) {
    const { provenance } = arrival;
    if (provenance.callId === null) return null;
    for (const execution of world.executions) {
      if (execution.callId !== provenance.callId || execution.ordinal !== provenance.execution || !execution.disconnected) continue;
      return `${describeMessage(arrival)} arrived on connection ${arrival.connection.index}, though its request was cancelled by a disconnect`;
    }
    return null;
  },
};

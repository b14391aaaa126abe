// 2026-07-28: a client disconnect cancels its request. The tool takes no further step, the server reports it
// cancelled, and nothing more is sent for that request on any connection.
import { MODERN, type Property, describeMessage } from './property.ts';

export const disconnectCancels: Property = {
  name: 'disconnect-cancels',
  statement:
    'When a 2026-07-28 exchange breaks before its result and the server is told, the request is cancelled: its tool takes no further step, is cancelled by the end of the run, and nothing more is sent for it on any connection.',
  source:
    'MCP 2026-07-28, basic/patterns/cancellation: "Closing the SSE response stream is the cancellation signal. The server MUST treat a client disconnect as cancellation of that request."; SEP-2575 (FIELD): the server "MUST NOT send anything further for it".',
  kind: 'safety',
  severity: 'failure',
  revisions: MODERN,
  onToolStep(_world, execution) {
    if (!execution.disconnected) return null;
    return `${execution.tool} ${execution.callId} (execution ${execution.index + 1}) took another step after its 2026-07-28 exchange broke: the server did not treat the disconnect as cancellation`;
  },
  onArrival(world, arrival) {
    const { provenance } = arrival;
    if (provenance.callId === null) return null;
    for (const execution of world.executions) {
      if (execution.callId !== provenance.callId || execution.ordinal !== provenance.execution || !execution.disconnected) continue;
      return `${describeMessage(arrival)} arrived on connection ${arrival.connection.index}, though its request was cancelled by a disconnect`;
    }
    return null;
  },
  onFinish(world) {
    for (const index of world.running) {
      const execution = world.executions[index]!;
      if (execution.disconnected && !execution.cancelled) return `${execution.tool} ${execution.callId} (execution ${index + 1}) was never cancelled, though its 2026-07-28 exchange broke`;
    }
    return null;
  },
};

// 2026-07-28: once a client disconnect has cancelled a request, the server stops its work: the tool takes no further
// step and is cancelled by the end of the run. A SHOULD, apart from disconnect-cancels' MUST NOT (nothing more sent).
import { MODERN_CANCELLATION } from './source.ts';
import { MODERN, type Property } from './property.ts';

export const disconnectStopsWork: Property = {
  name: 'disconnect-stops-work',
  statement: 'When a 2026-07-28 exchange breaks before its result and the server is told, its tool takes no further step and is cancelled by the end of the run.',
  source: { ...MODERN_CANCELLATION, keyword: 'SHOULD' },
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  revisions: MODERN,
  onToolStep(_world, execution) {
    if (!execution.disconnected) return null;
    return `${execution.tool} ${execution.callId} (execution ${execution.index + 1}) took another step after its 2026-07-28 exchange broke: the server did not stop its work`;
  },
  onFinish(world) {
    for (const index of world.running) {
      const execution = world.executions[index]!;
      if (execution.disconnected && !execution.cancelled) return `${execution.tool} ${execution.callId} (execution ${index + 1}) was never cancelled, though its 2026-07-28 exchange broke`;
    }
    return null;
  },
};

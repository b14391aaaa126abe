// Every request the application makes settles: a result, an error, or the client's own timeout, never a hang.

import type { ClientProperty } from './client-property.ts';
import { SESSION_REVISIONS } from './client-property.ts';

/** Once faults stop and time runs on, every call has settled. */
export const clientRequestsSettle: ClientProperty = {
  name: 'client-requests-settle',
  statement: 'Once faults stop and simulated time runs on, every tool call the application made has settled: with its result, an error, or the client\'s own timeout.',
  source: {
    kind: 'spec',
    revisions: ['2025-03-26', '2025-06-18', '2025-11-25'],
    page: 'basic/lifecycle',
    section: 'Timeouts',
    quote: 'Implementations SHOULD establish timeouts for all sent requests, to prevent hung connections and resource exhaustion.',
    keyword: 'SHOULD',
  },
  background: 'python-sdk #1577: call_tool() hangs when a stream closes before its response.',
  severity: 'warning',
  revisions: SESSION_REVISIONS,
  kind: 'liveness',
  onFinish(world) {
    const pending = world.calls.filter((call) => call.outcome === null);
    // A liveness phase cut short by its step bound (client and server still busy) proves no hang: say nothing.
    if (pending.length === 0 || world.healExhausted) return null;
    const names = pending.map((call) => `${call.callId} (${call.tool})`).join(', ');
    return `${names} never settled: no result, no error and no timeout by simulated time +${world.clock.nowMs - world.clockStartMs} ms, with faults stopped and every timer run`;
  },
};

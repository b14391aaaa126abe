// A note, not a failure: under 2026-07-28 a client re-issues a call whose exchange broke as a new request, so a
// side-effecting call may run twice; the revision permits it (no idempotency key exists).
import { MODERN, type Property } from './property.ts';

export const reissuedCallRunsAgain: Property = {
  name: 'reissued-call-runs-again',
  statement:
    'A re-issued 2026-07-28 call of a non-idempotent tool (append) ran more than once: permitted by the revision, reported as a note, never a failure.',
  source: {
    kind: 'spec',
    revisions: MODERN,
    page: 'changelog',
    section: 'Major changes',
    quote: 'A broken response stream loses the in-flight request; clients MUST re-issue it as a new request with a new request ID',
    keyword: 'MUST',
  },
  background: 'The idempotency-key proposal (spec PR #3182) was closed unmerged (FIELD.md): nothing lets the server tell a re-issue from a new call, so a re-issued side-effecting call may run twice.',
  kind: 'safety',
  severity: 'note',
  underClientFault: 'server',
  revisions: MODERN,
  onExecution(world, execution) {
    if (execution.tool !== 'append' || execution.call === null) return null;
    const count = world.appends.get(execution.callId) ?? 0;
    if (count <= 1) return null;
    return `append call ${execution.callId} ran ${count} times (execution ${execution.index + 1}): its 2026-07-28 request was re-issued after its exchange broke, and nothing told the server it was the same call`;
  },
};

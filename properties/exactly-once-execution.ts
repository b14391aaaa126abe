// A non-idempotent call executes exactly once, however often its request is re-sent or replayed.
import { LEGACY, type Property } from './property.ts';

export const exactlyOnceExecution: Property = {
  name: 'exactly-once-execution',
  statement: 'A non-idempotent call (the append tool) executes at most once, whatever is re-sent or replayed.',
  source: 'Seed 000: "a write-side tool (file append) executed twice"; DESIGN: "a non-idempotent call must execute exactly once even when the same request is re-sent".',
  kind: 'safety',
  severity: 'advice',
  revisions: LEGACY,
  onExecution(world, execution) {
    if (execution.tool !== 'append') return null;
    const count = world.appends.get(execution.callId) ?? 0;
    if (count <= 1) return null;
    return `append call ${execution.callId} executed ${count} times (execution ${execution.index}, session ${execution.sessionIdSeen}, epoch ${execution.epoch})`;
  },
};

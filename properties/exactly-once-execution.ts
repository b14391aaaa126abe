// A non-idempotent call executes exactly once, however often its request is re-sent or replayed.
import { LEGACY, type Property } from './property.ts';

export const exactlyOnceExecution: Property = {
  name: 'exactly-once-execution',
  statement: 'A non-idempotent call (the append tool) executes at most once, whatever is re-sent or replayed.',
  source: {
    kind: 'seed',
    file: '000_318af8320b77c7d3.txt',
    quote: 'non-idempotent tools execute exactly once',
  },
  background: 'Seed 000: "a write-side tool (file append) executed twice"; a re-sent request is the server\'s to run once (DESIGN.md).',
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'server',
  revisions: LEGACY,
  onExecution(world, execution) {
    if (execution.tool !== 'append') return null;
    const count = world.appends.get(execution.callId) ?? 0;
    if (count <= 1) return null;
    return `append call ${execution.callId} executed ${count} times (execution ${execution.index}, session ${execution.sessionIdSeen}, epoch ${execution.epoch})`;
  },
};

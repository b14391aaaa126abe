// The lifecycle of one logical stream: a call's stream ends with its result or is aborted when its session
// ends first; a standalone stream is superseded by the session's next standalone GET.

import { setup } from 'xstate';

/** A logical stream: open until its result (completed), its session's end (aborted) or its replacement (superseded). */
export const streamMachine = setup({
  types: { events: {} as { type: 'complete' } | { type: 'abort' } | { type: 'supersede' } | { type: 'emit' } },
}).createMachine({
  id: 'stream',
  initial: 'open',
  states: {
    open: { on: { emit: 'open', complete: 'completed', abort: 'aborted', supersede: 'superseded' } },
    completed: { type: 'final' },
    aborted: { type: 'final' },
    superseded: { type: 'final' },
  },
});

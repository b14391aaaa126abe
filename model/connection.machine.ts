// One HTTP exchange carrying part of a stream: sent, then attached while its SSE body is open, until the
// client cuts it, the server ends it, or the server closes it asking the client to come back (polling).

import { setup } from 'xstate';

/** A connection: pending until its response; attached while the SSE body is open. */
export const connectionMachine = setup({
  types: {
    events: {} as
      | { type: 'stream' }
      | { type: 'answer' }
      | { type: 'frame' }
      | { type: 'cut' }
      | { type: 'end' }
      | { type: 'close' }
      | { type: 'drop' },
  },
}).createMachine({
  id: 'connection',
  initial: 'pending',
  states: {
    pending: { on: { stream: 'attached', answer: 'answered', drop: 'cut' } },
    attached: { on: { frame: 'attached', cut: 'cut', end: 'ended', close: 'closed', drop: 'cut' } },
    answered: { type: 'final' },
    cut: { type: 'final' },
    ended: { type: 'final' },
    closed: { type: 'final' },
  },
});

// One HTTP exchange carrying part of a stream: sent, then attached while its SSE body is open, until the
// client cuts it, the server ends it, or the server closes it asking the client to come back (polling). A lost
// tail makes it losing: what the server writes next never arrives (the server believes it delivered), then it breaks.

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
      | { type: 'drop' }
      | { type: 'rival' }
      | { type: 'loseTail' },
  },
}).createMachine({
  id: 'connection',
  initial: 'pending',
  states: {
    pending: { on: { stream: 'attached', answer: 'answered', drop: 'cut' } },
    // `rival`: another connection for the same stream is opened while this one is still attached.
    attached: { on: { frame: 'attached', cut: 'cut', end: 'ended', close: 'closed', drop: 'cut', rival: 'attached', loseTail: 'losing' } },
    // Frames written now are lost; the end of the response too; the connection then breaks (a cut, as the client sees it).
    losing: { on: { frame: 'losing', cut: 'cut', end: 'cut', close: 'cut', drop: 'cut' } },
    answered: { type: 'final' },
    cut: { type: 'final' },
    ended: { type: 'final' },
    closed: { type: 'final' },
  },
});

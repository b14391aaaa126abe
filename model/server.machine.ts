// The server: one incarnation at a time. A restart ends the incarnation (and everything it held in memory)
// and starts the next epoch; faults stop in the liveness phase.

import { setup } from 'xstate';

/** The server incarnation. `restart` begins a new epoch; `heal` ends the fault phase for good. */
export const serverMachine = setup({
  types: { events: {} as { type: 'restart' } | { type: 'heal' } | { type: 'serve' } },
}).createMachine({
  id: 'server',
  initial: 'faulty',
  states: {
    faulty: { on: { serve: 'faulty', restart: 'faulty', heal: 'healing' } },
    healing: { on: { serve: 'healing' } },
  },
});

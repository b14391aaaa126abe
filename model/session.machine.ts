// The lifecycle of one session as the simulator knows it: created by an initialize, live until it expires,
// is deleted, or is lost with its server incarnation.

import { setup } from 'xstate';

/** A session: initialising until the initialize is answered, then live until it ends one of three ways. */
export const sessionMachine = setup({
  types: {
    events: {} as
      | { type: 'established' }
      | { type: 'refused' }
      | { type: 'use' }
      | { type: 'expire' }
      | { type: 'delete' }
      | { type: 'restart' },
  },
}).createMachine({
  id: 'session',
  initial: 'initialising',
  states: {
    initialising: { on: { established: 'live', refused: 'lost', restart: 'lost' } },
    live: { on: { use: 'live', expire: 'expired', delete: 'deleted', restart: 'lost' } },
    expired: { on: { restart: 'expired' } },
    deleted: { on: { restart: 'deleted' } },
    lost: { on: { restart: 'lost' } },
  },
});

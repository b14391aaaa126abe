// A client: without a session until it initializes; live while it holds one; dead once the server answered
// 404 for its session, after which it must initialize again (request ids restart or not, per its habit).

import { setup } from 'xstate';

/** A client's relation to its session. */
export const clientMachine = setup({
  types: {
    events: {} as
      | { type: 'initialize' }
      | { type: 'initialized' }
      | { type: 'initializeFailed' }
      | { type: 'request' }
      | { type: 'notFound' }
      | { type: 'deleted' },
  },
}).createMachine({
  id: 'client',
  initial: 'idle',
  states: {
    idle: { on: { initialize: 'initialising' } },
    initialising: { on: { initialized: 'live', initializeFailed: 'idle', notFound: 'idle' } },
    live: { on: { request: 'live', notFound: 'dead', deleted: 'idle' } },
    dead: { on: { initialize: 'initialising' } },
  },
});

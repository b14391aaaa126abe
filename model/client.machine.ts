// A client: without a session until it initializes; live while it holds one; dead once the server answered
// 404 for its session, after which it must initialize again (request ids restart or not, per its habit).
// A 2026-07-28 client is stateless from the start: no initialize, no session; it only calls (and re-issues).

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
      | { type: 'deleted' }
      | { type: 'speakModern' }
      | { type: 'call' },
  },
}).createMachine({
  id: 'client',
  initial: 'idle',
  states: {
    idle: { on: { initialize: 'initialising', speakModern: 'stateless' } },
    initialising: { on: { initialized: 'live', initializeFailed: 'idle', notFound: 'idle' } },
    live: { on: { request: 'live', notFound: 'dead', deleted: 'idle' } },
    dead: { on: { initialize: 'initialising' } },
    // 2026-07-28: every request stands alone (no session to lose, no stream to resume).
    stateless: { on: { call: 'stateless' } },
  },
});

// Event IDs carry no epoch, the event store outlives restarts, and session IDs come from a counter that a
// restart resets: a session ID issued again revives the old session's buffers and ledger.
import { appendEvent, createCoreState, decideRequest, openSession, openStream } from '../../core/index.ts';
import type { StoredMessage, Strategy } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

function persistentStore(): Strategy {
  let state: ReturnType<typeof createCoreState<StoredMessage>> | null = null;
  return {
    boot: (_incarnation, options) => {
      state ??= createCoreState<StoredMessage>({ epoch: 'e', windowEventsMax: options.windowEventsMax });
      const store = state;
      // A restart forgets which sessions are live, but not what they buffered.
      for (const session of store.sessionsByIndex) if (session.status === 'live') session.status = 'expired';
      let sessions = 0;
      return {
        state: store,
        decide: (request) => decideRequest(store, request),
        append: (stream, stored, options) => appendEvent(store, stream, stored, options),
        openSession: (sessionId) => {
          const known = store.sessions.get(sessionId);
          if (known === undefined) return openSession(store, sessionId);
          known.status = 'live';
          return known;
        },
        openStream: (session, opening) => openStream(store, session, opening),
        nextSessionId: () => {
          sessions += 1;
          return `s${sessions}`;
        },
        bufferRequestFrames: false,
      };
    },
  };
}

export const noEpochCheckTarget = plantedTarget(
  {
    name: 'no-epoch-check',
    description: 'IDs without an epoch, a store that outlives restarts, session IDs from a counter reset by a restart',
    breaks: ['no-cross-epoch-replay', 'status-codes', 'result-to-its-request', 'no-hang', 'no-lost-result'],
  },
  persistentStore,
);

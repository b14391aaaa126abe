// The ledger is consulted only once a request has finished: a request ID still in flight, sent again with other
// content, is taken for a new request and executed, and the ID now names two calls.
import { openStream } from '../../core/index.ts';
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const noInFlightCheckTarget = plantedTarget(
  {
    name: 'no-in-flight-check',
    description: 'a POST reusing the request ID of a call still in flight, with other content, is executed instead of refused',
    breaks: ['reused-request-id-refused'],
  },
  {
    boot: (incarnation, options) => {
      const base = coreIncarnation(incarnation, options);
      let reused = 0;
      return {
        ...base,
        decide: (request) => {
          const decision = base.decide(request);
          if (decision.kind !== 'reject' || decision.rule !== 'request-id-reused' || request.kind !== 'post' || request.requestKey === null) return decision;
          const session = base.state.sessions.get(request.sessionId ?? '')!;
          const entry = session.ledger.get(request.requestKey)!;
          // The bug: only a finished request's ID is checked; one still running passes as new.
          if (session.streams[entry.streamIndex - 1]?.status !== 'open') return decision;
          return { kind: 'execute', rule: 'post-ignores-cursor', session };
        },
        openStream: (session, opening) => {
          if (opening.origin !== 'request' || !session.ledger.has(opening.requestKey)) return base.openStream(session, opening);
          reused += 1;
          return openStream(base.state, session, { ...opening, requestKey: `${opening.requestKey}#${reused}` });
        },
      };
    },
  },
);

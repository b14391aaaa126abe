// No request ledger: a re-sent request (same session, same request id) is executed again.
import { openStream } from '../../core/index.ts';
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const noLedgerTarget = plantedTarget(
  {
    name: 'no-ledger',
    description: 'keeps no request ledger: a retrying proxy\'s re-sent POST runs the tool again, and a reused request ID runs as a new call',
    breaks: ['exactly-once-execution', 'reused-request-id-refused', 'one-connection-per-stream'],
  },
  {
    boot: (incarnation, options) => {
      const base = coreIncarnation(incarnation, options);
      let opened = 0;
      return {
        ...base,
        decide: (request) => {
          const decision = base.decide(request);
          if (decision.kind === 'stream' && decision.rule === 'duplicate-request-attaches') {
            return { kind: 'execute', rule: 'post-ignores-cursor', session: decision.session };
          }
          return decision;
        },
        // Every request gets a key of its own, so nothing is ever recognised as sent before.
        openStream: (session, opening) => {
          opened += 1;
          return openStream(base.state, session, opening.origin === 'request' ? { ...opening, requestKey: `${opening.requestKey}#${opened}` } : opening);
        },
      };
    },
  },
);

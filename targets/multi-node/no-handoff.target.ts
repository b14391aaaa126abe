// The planted multi-node bug: nodes share the storage (sessions, streams, the ledger) but each delivers only the
// events it writes itself. A resume that lands on a node other than the one running the call is answered 200 from the
// shared storage and then hangs: the call's later events, its result included, go out only on the running node.
import { coreIncarnation, openKitRun, type Strategy } from '../server-kit.ts';
import type { Target } from '../target.ts';

const CORE_STRATEGY: Strategy = {
  boot(incarnation, options) {
    return coreIncarnation(incarnation, options);
  },
};

/**
 * The reference core on several nodes without the hand-off: on one node it is the reference (and holds); with
 * `--nodes 2` or more behind a non-sticky balancer it loses results.
 */
export const noHandoffTarget: Target = {
  name: 'no-handoff',
  kind: 'planted',
  description:
    'several nodes only (--nodes 2+): the reference core over shared storage, but a node delivers only the events it writes, so a resume on another node is answered 200 and left hanging',
  breaks: ['no-lost-result', 'no-hang', 'no-lost-notification', 'one-connection-per-stream'],
  open(options) {
    return openKitRun(CORE_STRATEGY, options, { handoff: false });
  },
};

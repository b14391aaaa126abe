// The reference target: the decision core inside the minimal in-process server. It must hold every property.
import { type Strategy, coreIncarnation, openKitRun } from '../server-kit.ts';
import type { Target } from '../target.ts';

const CORE_STRATEGY: Strategy = {
  boot(incarnation, options) {
    return coreIncarnation(incarnation, options);
  },
};

/** The decision core as a server: what a correct implementation looks like. */
export const referenceTarget: Target = {
  name: 'reference',
  kind: 'reference',
  description: 'the decision core (epoch/session/stream-scoped IDs, ledger, completed-stream policy replay-unsent) in a minimal in-process server',
  breaks: [],
  // Dual era: the core decides 2026-07-28 requests too (stateless, cancelled on a disconnect).
  eras: ['legacy', 'modern'],
  open(options) {
    return openKitRun(CORE_STRATEGY, options);
  },
};

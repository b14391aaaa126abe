// The reference as a 2026-07-28-only endpoint: the decision core with `modernOnly`, answering GET and DELETE with 405
// and refusing every legacy request; what `createMcpHandler({ legacy: 'reject' })` stands for. It must hold every
// property its clients (all 2026-07-28) are judged by.
import { type Strategy, coreIncarnation, openKitRun } from '../server-kit.ts';
import type { Target } from '../target.ts';

const MODERN_ONLY_STRATEGY: Strategy = {
  boot(incarnation, options) {
    return coreIncarnation(incarnation, options, { modernOnly: true });
  },
};

/** The decision core serving 2026-07-28 only. */
export const referenceModernTarget: Target = {
  name: 'reference-modern',
  kind: 'reference',
  description: 'the decision core serving 2026-07-28 only: stateless requests, a disconnect cancels, 405 for GET and DELETE, legacy requests refused',
  breaks: [],
  eras: ['modern'],
  open(options) {
    return openKitRun(MODERN_ONLY_STRATEGY, options);
  },
};

// The server takes what it wrote for delivered: a resume skips what was written before, silently. Right for a stale
// cursor (the client has it); a silent gap when the frames were lost on the way (a lost tail), which the server
// cannot see.
import { plantedTarget, withDecide } from './planted.ts';

export const trustsDeliveryTarget = plantedTarget(
  {
    name: 'trusts-delivery',
    description: 'a resume skips the events the server already wrote on a connection, without a reset: a lost tail is skipped silently',
    breaks: ['no-silent-gap'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (decision.kind !== 'stream' || decision.reset?.reason !== 'possibly-delivered') return decision;
    return { ...decision, reset: null };
  }),
);

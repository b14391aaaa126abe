// An off-by-one: the replay starts at the cursor's own event instead of strictly after it.
import { cursorSeq, plantedTarget, withDecide } from './planted.ts';

export const replayIncludesCursorTarget = plantedTarget(
  {
    name: 'replay-includes-cursor',
    description: 'replays from the cursor event itself (>= instead of >), delivering it a second time',
    breaks: ['no-redelivery', 'in-order-per-stream'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (decision.kind !== 'stream' || request.kind !== 'get' || decision.reset !== null) return decision;
    const seq = cursorSeq(request.lastEventId);
    const at = decision.stream.retained.find((event) => event.seq === seq);
    return at === undefined ? decision : { ...decision, replay: [at, ...decision.replay] };
  }),
);

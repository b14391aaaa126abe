// A resume replays every stream of the session after the cursor, not only the cursor's stream.
import { plantedTarget, withDecide } from './planted.ts';

export const crossStreamReplayTarget = plantedTarget(
  {
    name: 'cross-stream-replay',
    description: "a resume replays the retained events of all the session's streams, not only the cursor's",
    breaks: ['no-cross-stream-replay'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (decision.kind !== 'stream' || request.kind !== 'get' || decision.reset !== null) return decision;
    const others = decision.session.streams.filter((stream) => stream !== decision.stream).flatMap((stream) => stream.retained);
    return { ...decision, replay: [...decision.replay, ...others] };
  }),
);

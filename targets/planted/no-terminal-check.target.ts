// Completed streams are treated as open: a resume into one stays attached for live events that never come.
import { plantedTarget, withDecide } from './planted.ts';

export const noTerminalCheckTarget = plantedTarget(
  {
    name: 'no-terminal-check',
    description: 'never looks at a stream\'s terminal state: a resume into a completed stream is kept open as if more could come',
    breaks: ['no-hang'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (decision.kind !== 'stream' || decision.stream.status !== 'completed') return decision;
    return { ...decision, then: 'live' };
  }),
);

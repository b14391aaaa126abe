// A cursor outside the retained window replays what is left, skipping the evicted events without a word.
import { cursorSeq, plantedTarget, retainedAfter, withDecide } from './planted.ts';

export const silentWindowSkipTarget = plantedTarget(
  {
    name: 'silent-window-skip',
    description: 'a cursor whose successor was evicted gets the retained tail, the gap skipped silently (no reset)',
    breaks: ['no-silent-gap'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (decision.kind !== 'stream' || decision.rule !== 'resume-outside-window' || request.kind !== 'get') return decision;
    return { ...decision, reset: null, replay: retainedAfter(decision.stream, cursorSeq(request.lastEventId) ?? 0) };
  }),
);

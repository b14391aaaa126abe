// An off-by-one at the end of a completed stream: the terminal event's own ID is taken for a cursor before it, so
// the result the client already has is replayed to it.
import { cursorSeq, plantedTarget, withDecide } from './planted.ts';

export const terminalCursorReplaysTarget = plantedTarget(
  {
    name: 'terminal-cursor-replays',
    description: "a resume with a completed stream's terminal event ID replays the result again (<= instead of <)",
    breaks: ['no-redelivery', 'no-duplicate-delivery'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (decision.kind !== 'stream' || decision.rule !== 'completed-nothing-missed' || request.kind !== 'get') return decision;
    const seq = cursorSeq(request.lastEventId);
    const terminal = decision.stream.retained.find((event) => event.seq === seq && seq === decision.stream.seqTerminal);
    return terminal === undefined ? decision : { ...decision, replay: [terminal] };
  }),
);

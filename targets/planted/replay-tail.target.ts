// The reference's completed-stream policy until issue 7: a cursor before the result of a completed stream gets the
// tail replayed, result included, whether or not the server already wrote it. A client that had the result (a stale
// cursor, a proxy) receives it twice: seed 000's first symptom.
import { replayTail } from '../../core/index.ts';
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const replayTailTarget = plantedTarget(
  {
    name: 'replay-tail',
    description: 'completed-stream policy replay-tail: a cursor before the result replays it, even when the server already delivered it',
    breaks: ['no-duplicate-delivery'],
  },
  { boot: (incarnation, options) => coreIncarnation(incarnation, options, { completedStreamPolicy: replayTail }) },
);

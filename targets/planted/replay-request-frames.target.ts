// Seed 000's variant: request frames are kept in the replay buffer, and a replayed request is dispatched again.
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const replayRequestFramesTarget = plantedTarget(
  {
    name: 'replay-request-frames',
    description: 'buffers the tools/call request frame in its stream; a resume replays it and the call runs again',
    breaks: ['exactly-once-execution'],
  },
  { boot: (incarnation, options) => ({ ...coreIncarnation(incarnation, options), bufferRequestFrames: true }) },
);

// Seed 000's variant as the seed tells it: the tools/call request frame is kept in the call's stream buffer, and a
// resume replays it to the client as an event; the client takes it for a request and sends it again.
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const echoesRequestFramesTarget = plantedTarget(
  {
    name: 'echoes-request-frames',
    description: "buffers the tools/call request frame in its stream; a resume replays it to the client, who re-sends it (seed 000's variant)",
    breaks: ['no-request-frame-delivered'],
  },
  { boot: (incarnation, options) => ({ ...coreIncarnation(incarnation, options), bufferRequestFrames: true, echoRequestFrames: true }) },
);

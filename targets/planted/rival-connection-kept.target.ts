// A second connection for a stream takes it over, and the first is forgotten instead of ended: it stays open with
// nothing more to come, and its client waits on it (the server never tells it the stream moved).
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const rivalConnectionKeptTarget = plantedTarget(
  {
    name: 'rival-connection-kept',
    description: 'a resume of a stream a connection still carries takes the stream over and leaves the first connection open, silently',
    breaks: ['one-connection-per-stream'],
  },
  { boot: (incarnation, options) => ({ ...coreIncarnation(incarnation, options), supersededConnection: 'forget' }) },
);

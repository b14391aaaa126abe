// Completed-stream policy fresh-with-reset: a completed stream is never replayed; a cursor before its result gets a
// reset. Never a duplicate, never silent, but a result the server never sent (the client was cut before it) is
// withheld: the client must ask again, as if its disconnection had cancelled the call.
import { freshWithReset } from '../../core/index.ts';
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const freshWithResetTarget = plantedTarget(
  {
    name: 'fresh-with-reset',
    description: 'completed-stream policy fresh-with-reset: a cursor before the result gets a reset, even when the result was never sent',
    breaks: ['no-withheld-result'],
  },
  { boot: (incarnation, options) => coreIncarnation(incarnation, options, { completedStreamPolicy: freshWithReset }) },
);

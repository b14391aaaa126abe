// Seed 000's rule taken literally: a cursor into a completed stream starts a fresh, empty stream. The client
// that missed the result never gets it and is never told.
import { freshLiteral } from '../../core/index.ts';
import { coreIncarnation } from '../server-kit.ts';
import { plantedTarget } from './planted.ts';

export const freshLiteralTarget = plantedTarget(
  {
    name: 'fresh-literal',
    description: 'seed 000 read literally: "completed -> fresh stream", so a client that missed the result loses it silently',
    breaks: ['no-silent-gap', 'no-lost-result'],
  },
  { boot: (incarnation, options) => coreIncarnation(incarnation, options, { completedStreamPolicy: freshLiteral }) },
);

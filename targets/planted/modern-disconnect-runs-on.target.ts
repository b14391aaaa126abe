// A dual-era endpoint that treats a 2026-07-28 client's disconnect as the 2025 revisions do: the tool runs on.
import { plantedTarget, withDecide } from './planted.ts';

export const modernDisconnectRunsOnTarget = plantedTarget(
  {
    name: 'modern-disconnect-runs-on',
    description: "a 2026-07-28 client's disconnect does not cancel its request: the tool runs on (the legacy era's rule)",
    breaks: ['disconnect-stops-work'],
    eras: ['legacy', 'modern'],
  },
  withDecide((request, base) => base.decide(request), { cancelOnDisconnect: false }),
);

// A dual-era endpoint that lets a proxy-attached Mcp-Session-Id pick the era: a 2026-07-28 request naming a live
// legacy session runs in that session, on that session's streams.
import { plantedTarget, withDecide } from './planted.ts';

export const modernJoinsLegacySessionTarget = plantedTarget(
  {
    name: 'modern-joins-legacy-session',
    description: 'a 2026-07-28 request with a proxy-attached Mcp-Session-Id of a live legacy session is run in that session',
    breaks: ['modern-exchange-stateless', 'era-isolation', 'disconnect-stops-work'],
    eras: ['legacy', 'modern'],
  },
  withDecide((request, base) => {
    if (request.kind !== 'post' || request.modern !== true || request.sessionId === null) return base.decide(request);
    if (base.state.sessions.get(request.sessionId)?.status !== 'live') return base.decide(request);
    return base.decide({ ...request, modern: false });
  }),
);

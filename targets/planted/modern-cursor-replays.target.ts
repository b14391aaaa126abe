// A dual-era endpoint that honours Last-Event-ID on a 2026-07-28 request: a legacy cursor a proxy attached gets the
// replay of that legacy stream, into the modern exchange (seed 000's bug, reached through the new era).
import { parseEventId, streamOf } from '../../core/index.ts';
import { plantedTarget, retainedAfter, withDecide } from './planted.ts';

export const modernCursorReplaysTarget = plantedTarget(
  {
    name: 'modern-cursor-replays',
    description: "a 2026-07-28 request carrying a legacy Last-Event-ID gets that legacy stream's events replayed into its exchange",
    breaks: ['era-isolation', 'result-to-its-request'],
    eras: ['legacy', 'modern'],
  },
  withDecide((request, base) => {
    if (request.kind !== 'post' || request.modern !== true || request.lastEventId === null) return base.decide(request);
    const parsed = parseEventId(request.lastEventId);
    if (!parsed.ok) return base.decide(request);
    const owner = base.state.sessionsByIndex[parsed.parts.sessionIndex - 1];
    const stream = owner === undefined ? undefined : streamOf(owner, parsed.parts.streamIndex);
    const decision = base.decide(request);
    if (stream === undefined || decision.kind !== 'execute') return decision;
    return { kind: 'execute-with-replay', rule: 'modern-cursor-replays', session: decision.session, replay: retainedAfter(stream, parsed.parts.seq) };
  }),
);

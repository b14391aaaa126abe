// The cursor's session is never compared with the presenting session: the cursor alone picks the stream.
import { parseEventId } from '../../core/index.ts';
import { plantedTarget, withDecide } from './planted.ts';

export const noOwnerCheckTarget = plantedTarget(
  {
    name: 'no-owner-check',
    description: "resumes the cursor's stream in whichever session issued it, without checking it is the presenting session",
    breaks: ['no-cross-session-delivery'],
  },
  withDecide((request, base) => {
    if (request.kind !== 'get' || request.lastEventId === null || request.sessionId === null) return base.decide(request);
    const presenting = base.state.sessions.get(request.sessionId);
    const parsed = parseEventId(request.lastEventId);
    if (presenting?.status !== 'live' || !parsed.ok) return base.decide(request);
    const owner = base.state.sessionsByIndex[parsed.parts.sessionIndex - 1];
    if (owner === undefined || owner.status !== 'live') return base.decide(request);
    return base.decide({ ...request, sessionId: owner.id });
  }),
);

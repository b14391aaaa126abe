// Seed 000's naive rule: "resume if the ID is known". Any retained event ID resumes its stream, whoever
// presents it and whatever the request is, a new POST included.
import type { BufferedEvent, SessionRecord, StreamRecord } from '../../core/index.ts';
import type { StoredMessage } from '../server-kit.ts';
import { plantedTarget, retainedAfter, withDecide } from './planted.ts';

function findEvent(sessions: readonly SessionRecord<StoredMessage>[], eventId: string): { stream: StreamRecord<StoredMessage>; event: BufferedEvent<StoredMessage> } | null {
  for (const session of sessions) {
    for (const stream of session.streams) {
      const event = stream.retained.find((candidate) => candidate.id === eventId);
      if (event !== undefined) return { stream, event };
    }
  }
  return null;
}

export const resumeIfKnownTarget = plantedTarget(
  {
    name: 'resume-if-known',
    description: 'seed 000: resumes from any known event ID, for any session, into any request (a new POST included)',
    breaks: ['no-cross-stream-replay', 'no-cross-session-delivery', 'result-to-its-request', 'no-duplicate-delivery', 'no-lost-result'],
  },
  withDecide((request, base) => {
    const decision = base.decide(request);
    if (request.kind === 'delete' || request.lastEventId === null) return decision;
    const found = findEvent(base.state.sessionsByIndex, request.lastEventId);
    if (found === null) return decision;
    const replay = retainedAfter(found.stream, found.event.seq);
    if (request.kind === 'post' && decision.kind === 'execute') {
      return { kind: 'execute-with-replay', rule: 'resume-if-known', session: decision.session, replay };
    }
    const session = request.sessionId === null ? undefined : base.state.sessions.get(request.sessionId);
    if (request.kind !== 'get' || session === undefined || session.status !== 'live') return decision;
    return { kind: 'stream', rule: 'resume-open', session, stream: found.stream, replay, reset: null, then: found.stream.status === 'open' ? 'live' : 'end' };
  }),
);

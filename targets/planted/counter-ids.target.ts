// Seed 004: event IDs from one counter per server process ("evt-4471"), reset by a restart; the replay buffer
// is keyed by that number alone; a dead session presenting a cursor is given a fresh session, and the replay.
import type { BufferedEvent, StreamRecord } from '../../core/index.ts';
import { type StoredMessage, coreIncarnation, randomSessionId } from '../server-kit.ts';
import { plantedTarget, retainedAfter } from './planted.ts';

const COUNTER_ID = /^evt-([1-9][0-9]{0,8})$/;

export const counterIdsTarget = plantedTarget(
  {
    name: 'counter-ids',
    description: 'seed 004: per-process counter IDs reset on restart, a buffer keyed by the number alone, and a fresh session minted for a dead one',
    breaks: ['no-cross-session-delivery', 'status-codes', 'no-silent-gap', 'no-duplicate-delivery'],
  },
  {
    boot: (incarnation, options, host) => {
      const base = coreIncarnation(incarnation, options);
      let counter = 0;
      const byNumber = new Map<number, { stream: StreamRecord<StoredMessage>; seq: number }>();
      const numberOf = new Map<string, number>();
      const renamed = (event: BufferedEvent<StoredMessage>): BufferedEvent<StoredMessage> => ({ ...event, id: `evt-${numberOf.get(event.id)}` });
      return {
        ...base,
        append: (stream, stored, options) => {
          const event = base.append(stream, stored, options);
          counter += 1;
          byNumber.set(counter, { stream, seq: event.seq });
          numberOf.set(event.id, counter);
          return renamed(event);
        },
        decide: (request) => {
          if (request.kind !== 'get' || request.lastEventId === null) return base.decide(request);
          const match = COUNTER_ID.exec(request.lastEventId);
          const hit = match === null ? undefined : byNumber.get(Number(match[1]));
          if (hit === undefined) return base.decide(request);
          let session = request.sessionId === null ? undefined : base.state.sessions.get(request.sessionId);
          // The session lookup failed, so the handler mints a fresh session, then replays by number.
          if (session === undefined || session.status !== 'live') session = base.openSession(randomSessionId(host));
          const replay = retainedAfter(hit.stream, hit.seq).map(renamed);
          return { kind: 'stream', rule: 'resume-open', session, stream: hit.stream, replay, reset: null, then: hit.stream.status === 'open' ? 'live' : 'end' };
        },
      };
    },
  },
);

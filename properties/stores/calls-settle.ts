// Every store call settles: the transport awaits each one while it handles a request.

import { show } from '../../sim/levels/store-world.ts';
import type { StoreProperty } from './store-property.ts';

export const callsSettle: StoreProperty = {
  name: 'calls-settle',
  statement: 'Every storeEvent, getStreamIdForEventId and replayEventsAfter call settles (resolves or rejects) once the send callbacks it awaits have returned.',
  why: 'The transport awaits each call while handling a request: a call that never settles hangs that request for good.',
  source: 'The SDK transport awaits every EventStore call while it handles a request (webStandardStreamableHttp.js).',
  severity: 'failure',
  judge({ world }, report) {
    for (const call of world.storeCalls) {
      if (call.state === 'pending') report(call.step, `storeEvent of ${call.label} on ${call.stream.label} never settled`);
    }
    for (const replay of world.replays) {
      if (replay.lookup.state === 'pending') {
        report(replay.step, `getStreamIdForEventId(${show(replay.cursor)}) of session ${replay.session.label} never settled`);
      } else if (replay.state === 'pending') {
        report(replay.step, `replayEventsAfter(${show(replay.cursor)}) of session ${replay.session.label} never settled, though each of its ${replay.sends.length} sends was released`);
      }
    }
  },
};

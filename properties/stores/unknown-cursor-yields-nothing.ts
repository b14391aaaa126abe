// A cursor the session was never sent opens nothing: no event sent, none of the session's streams named.

import { show } from '../../sim/levels/store-world.ts';
import { describeCursor, labelOf } from './replay-reading.ts';
import type { StoreProperty } from './store-property.ts';

export const unknownCursorYieldsNothing: StoreProperty = {
  name: 'unknown-cursor-yields-nothing',
  statement:
    "A cursor the session was never sent (a random string, a real ID with one character changed, an ID issued before a restart, another session's ID) makes the store send nothing and name none of the session's streams; throwing or returning without sending is fine.",
  why: 'A forged or stale cursor must not open any stream: a replay of it delivers events the client never asked for, and a stream it names is handed to the connection.',
  source: 'Seed 004: "Physical presence in a buffer is not authorization to deliver"; seed 000: a cursor is meaningful only to the session that was sent it.',
  severity: 'advice',
  judge({ world, replays }, report) {
    for (const { replay, sent, foreign } of replays) {
      // Another session's events sent are session-isolation's; the session's own cursor is judged by the others.
      if (foreign.length > 0 || replay.kind === 'own') continue;
      // A forged or malformed string that later became a real ID proves nothing.
      if ((replay.kind === 'forged' || replay.kind === 'malformed') && world.eventsById.has(replay.cursor)) continue;
      if (replay.sends.length > 0) {
        const named = sent.map((item, index) => labelOf(item, replay, index)).join(', ');
        report(replay.step, `${describeCursor(replay)}; the store sent ${replay.sends.length} event(s): ${named}`);
        continue;
      }
      if (replay.state !== 'returned') continue;
      const stream = replay.session.streams.find((candidate) => candidate.streamId === replay.returned && candidate.calls.length > 0);
      if (stream === undefined) continue;
      report(
        replay.step,
        `${describeCursor(replay)}; replayEventsAfter sent nothing but returned ${show(replay.returned)}, the ID of ${stream.label}: the transport hands that stream's later events to this connection`,
      );
    }
  },
};

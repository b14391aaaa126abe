// A replay of the session's own cursor sends exactly what followed it on its stream, and names that stream.

import { describeCursor } from './replay-reading.ts';
import type { StoreProperty } from './store-property.ts';

export const replayExact: StoreProperty = {
  name: 'replay-exact',
  statement:
    "For a cursor its own session received, replayEventsAfter sends exactly the events stored on the cursor's stream strictly after it, in the order their storeEvent calls resolved, each once, payloads deep-equal, and returns that stream's ID (getStreamIdForEventId, if present, names it too); events stored while the replay runs may follow, in order. A refusal instead is judged by resumes-within-window.",
  why: 'The transport writes the replayed events to the resumed connection and registers it under the returned stream ID: anything else is a lost, duplicated, reordered or misdirected message.',
  source:
    'MCP transports: the server MAY replay the messages "that would have been sent after the last event ID" on the disconnected stream and "MUST NOT replay messages that would have been delivered on a different stream"; the transport registers the connection under the returned stream ID.',
  severity: 'failure',
  judge({ replays }, report) {
    for (const { replay, own } of replays) {
      if (own === null || own.problems.length === 0) continue;
      const { problems } = own;
      report(replay.step, `${describeCursor(replay)}; the store ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`);
    }
  },
};

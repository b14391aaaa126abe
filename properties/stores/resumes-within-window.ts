// A cursor of the session's own, on an open stream, within the window the checker expects, is resumed, not refused.

import { describeCursor, list } from './replay-reading.ts';
import type { StoreProperty } from './store-property.ts';

export const resumesWithinWindow: StoreProperty = {
  name: 'resumes-within-window',
  statement:
    "A cursor its own session received, on an open stream of the current incarnation with at most context.windowEventsMax events stored after it, is resumed, not refused (the checker's expected retention; --window sets it).",
  why: 'A refusal is safe (the transport answers 400 and the client starts afresh) but the client loses the events it missed: retention shorter than what the server promises its clients is worth knowing.',
  source: 'Seed 000: "Live session + cursor of that session, in an open stream, inside the retained window -> resume"; MCP lets the server replay ("MAY"), so a refusal is advice, not a failure.',
  severity: 'advice',
  judge({ world, replays }, report) {
    for (const { replay, foreign, refused } of replays) {
      if (replay.kind !== 'own' || foreign.length > 0 || refused === null) continue;
      const cursor = replay.source!;
      const stream = cursor.stream;
      const before = stream.resolved.filter((event) => event.order > cursor.order && event.order < replay.resolvedBefore);
      // A request stream of an earlier incarnation (a durable store's) lost its request: refusing to resume it is fine.
      const completed = (stream.responseCall !== null && stream.responseCall.tick < replay.tick) || (stream.kind === 'post' && stream.epoch < replay.session.epoch);
      // A cursor whose storeEvent had not resolved when the replay was called may not be visible to the store yet.
      if (completed || before.length > world.settings.windowEventsMax || cursor.order >= replay.resolvedBefore) continue;
      report(
        replay.step,
        `${describeCursor(replay)}; ${refused}, though ${stream.label} is open and only ${before.length} event(s) follow the cursor (${list(before)}), within the ${world.settings.windowEventsMax} the checker expects a store to keep (context.windowEventsMax)`,
      );
    }
  },
};

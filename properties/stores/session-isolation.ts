// A replay never sends another session's events, whatever cursor it is given.

import { describeCursor } from './replay-reading.ts';
import type { StoreProperty } from './store-property.ts';

/** Said wherever cross-session isolation is reported with `--shared`. */
export const SHARED_ISOLATION_NOTE =
  'with --shared one store instance serves every session and no EventStore method is told the session, so any store that replays at all fails session isolation once a session presents another session\'s cursor (or two sessions share the standalone stream ID "_GET_stream"): give each session its own store (the factory is called with context.sessionId), scoped by session';

export const sessionIsolation: StoreProperty = {
  name: 'session-isolation',
  statement: 'A replay never sends an event that another session stored, whatever cursor it is given.',
  why: "Seed 004: physical presence in a buffer is not authorisation to deliver; a proxy or attacker can present another session's cursor.",
  source: 'MCP transports: the server "MUST NOT replay messages that would have been delivered on a different stream"; another session\'s stream is one.',
  severity: 'failure',
  judge({ world, replays }, report) {
    for (const { replay, foreign } of replays) {
      if (foreign.length === 0) continue;
      const owners = [...new Set(foreign.map((item) => item.call.stream.session.label))].join(', ');
      report(
        replay.step,
        `${describeCursor(replay)}; the store sent ${foreign.map((item) => item.call.label).join(', ')}, stored by session ${owners} (as the payload's origin shows)${world.settings.shared ? ' (one shared store cannot tell sessions apart)' : ''}`,
      );
    }
  },
};

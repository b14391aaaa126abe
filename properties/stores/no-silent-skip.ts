// A cursor whose following events the store no longer holds is refused, never answered with a later part only.

import { show } from '../../sim/levels/store-world.ts';
import { describeCursor, list } from './replay-reading.ts';
import type { StoreProperty } from './store-property.ts';

export const noSilentSkip: StoreProperty = {
  name: 'no-silent-skip',
  statement:
    'A cursor whose following events the store no longer holds is refused (replayEventsAfter throws, or getStreamIdForEventId returns undefined): a replay never returns having sent only a later part of what followed the cursor.',
  why: 'The SDK has no way to signal a gap: a replay that skips events loses them without anyone knowing (seed 004: never skip silently).',
  source: 'Seed 004: "start fresh and signal a gap"; "never skip silently".',
  severity: 'advice',
  judge({ replays }, report) {
    for (const { replay, own } of replays) {
      if (own === null || own.skipped === null) continue;
      const sentOwn = own.before.slice(own.skipped.length);
      report(
        replay.step,
        `${describeCursor(replay)}; the replay sent ${list(sentOwn)} and returned ${show(replay.returned)} without refusing, skipping ${list(own.skipped)} (${own.skipped.length} of the ${own.before.length} event(s) stored after the cursor)`,
      );
    }
  },
};

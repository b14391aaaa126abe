// The planted-bug targets, each with the properties it must break.
import { counterIdsTarget } from './counter-ids.target.ts';
import { crossStreamReplayTarget } from './cross-stream-replay.target.ts';
import { echoesRequestFramesTarget } from './echoes-request-frames.target.ts';
import { freshLiteralTarget } from './fresh-literal.target.ts';
import { freshWithResetTarget } from './fresh-with-reset.target.ts';
import { noEpochCheckTarget } from './no-epoch-check.target.ts';
import { noLedgerTarget } from './no-ledger.target.ts';
import { noOwnerCheckTarget } from './no-owner-check.target.ts';
import { noTerminalCheckTarget } from './no-terminal-check.target.ts';
import { replayIncludesCursorTarget } from './replay-includes-cursor.target.ts';
import { replayTailTarget } from './replay-tail.target.ts';
import { replayRequestFramesTarget } from './replay-request-frames.target.ts';
import { resumeIfKnownTarget } from './resume-if-known.target.ts';
import { silentWindowSkipTarget } from './silent-window-skip.target.ts';
import { noInFlightCheckTarget } from './no-in-flight-check.target.ts';
import { modernCursorReplaysTarget } from './modern-cursor-replays.target.ts';
import { modernDisconnectRunsOnTarget } from './modern-disconnect-runs-on.target.ts';
import { modernJoinsLegacySessionTarget } from './modern-joins-legacy-session.target.ts';
import { rivalConnectionKeptTarget } from './rival-connection-kept.target.ts';
import { terminalCursorReplaysTarget } from './terminal-cursor-replays.target.ts';
import { trustsDeliveryTarget } from './trusts-delivery.target.ts';
import type { Target } from '../target.ts';

/** Every planted target. */
export const PLANTED_TARGETS: readonly Target[] = [
  resumeIfKnownTarget,
  counterIdsTarget,
  noTerminalCheckTarget,
  noEpochCheckTarget,
  silentWindowSkipTarget,
  replayRequestFramesTarget,
  crossStreamReplayTarget,
  noOwnerCheckTarget,
  replayIncludesCursorTarget,
  freshLiteralTarget,
  noLedgerTarget,
  replayTailTarget,
  freshWithResetTarget,
  rivalConnectionKeptTarget,
  noInFlightCheckTarget,
  terminalCursorReplaysTarget,
  trustsDeliveryTarget,
  echoesRequestFramesTarget,
  // Dual-era endpoints (2026-07-28 beside the 2025 revisions): found with --protocol mixed.
  modernCursorReplaysTarget,
  modernDisconnectRunsOnTarget,
  modernJoinsLegacySessionTarget,
];

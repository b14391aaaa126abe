// Helpers for planted-bug targets: the reference server with one piece of its resumption logic replaced by
// a policy the seeds show failing. Each target names the properties its bug must break.

import { type BufferedEvent, type CoreRequest, type StreamRecord, parseEventId } from '../../core/index.ts';
import type { PropertyName } from '../../properties/names.ts';
import { type KitDecision, type StoredMessage, type Strategy, type StrategyIncarnation, coreIncarnation, markSelfContained, openKitRun } from '../server-kit.ts';
import type { ProtocolEra, Target } from '../target.ts';

/** Builds a planted target from its description and strategy (or a maker of one per run, for state that outlives restarts). */
export function plantedTarget(
  info: { name: string; description: string; breaks: readonly PropertyName[]; eras?: readonly ProtocolEra[] },
  strategy: Strategy | (() => Strategy),
): Target {
  return { ...info, kind: 'planted', open: (options) => openKitRun(typeof strategy === 'function' ? strategy() : strategy, options) };
}

/**
 * The reference strategy with its decision replaced by `decide`, which may consult the correct one. `decide` and
 * `overrides` keep no state of their own (everything stays in the core state), so the result is marked self-contained.
 */
export function withDecide(
  decide: (request: CoreRequest, base: StrategyIncarnation) => KitDecision,
  overrides: Partial<Omit<StrategyIncarnation, 'decide' | 'state'>> = {},
): Strategy {
  return {
    boot: (incarnation, options) => {
      const base = coreIncarnation(incarnation, options);
      return markSelfContained({ ...base, ...overrides, decide: (request) => decide(request, base) });
    },
  };
}

/** The sequence number a cursor names, if it parses. */
export function cursorSeq(lastEventId: string | null): number | null {
  if (lastEventId === null) return null;
  const parsed = parseEventId(lastEventId);
  return parsed.ok ? parsed.parts.seq : null;
}

/** The retained events of a stream strictly after `seq` (no window check: that is the bug's business). */
export function retainedAfter(stream: StreamRecord<StoredMessage>, seq: number): BufferedEvent<StoredMessage>[] {
  return stream.retained.filter((event) => event.seq > seq);
}

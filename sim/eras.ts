// The eras a target serves (TargetInfo.eras), and what they allow of a configured protocol: no randomness here, so
// the command line can check `--protocol` without loading the simulator.

import type { ProtocolEra } from '../targets/target.ts';
import { DEFAULT_REVISION, MODERN_REVISION, type ProtocolChoice, type Revision } from './config.ts';

/** The eras a target serves; absent means legacy only (TargetInfo.eras). */
export function erasOf(eras: readonly ProtocolEra[] | undefined): readonly ProtocolEra[] {
  return eras === undefined || eras.length === 0 ? ['legacy'] : eras;
}

/** The revision a target's clients speak when no protocol is configured: the modern one on a modern-only target. */
export function defaultRevision(eras: readonly ProtocolEra[] | undefined): Revision {
  return erasOf(eras).includes('legacy') ? DEFAULT_REVISION : MODERN_REVISION;
}

/**
 * Why `protocol` cannot be run against a target serving `eras`, or null when it can: a modern revision on a
 * legacy-only target, a legacy revision on a modern-only one (`mixed` draws only what the target serves).
 */
export function protocolMismatch(protocol: ProtocolChoice | undefined, eras: readonly ProtocolEra[] | undefined): string | null {
  if (protocol === undefined || protocol === 'mixed') return null;
  const served = erasOf(eras);
  if (protocol === MODERN_REVISION && !served.includes('modern')) return `the target serves only the legacy era (2025-03-26 to 2025-11-25), not ${protocol}`;
  if (protocol !== MODERN_REVISION && !served.includes('legacy')) return `the target serves only the modern era (${MODERN_REVISION}), not ${protocol}`;
  return null;
}

/** What `mixed` draws from on a target serving `eras`, said in a line for the fuzz's header. */
export function mixedScope(eras: readonly ProtocolEra[] | undefined): string {
  const served = erasOf(eras);
  if (!served.includes('modern')) return 'mixed: the target serves only the legacy era, so clients draw legacy revisions only';
  if (!served.includes('legacy')) return `mixed: the target serves only the modern era, so every client speaks ${MODERN_REVISION}`;
  return 'mixed: each run draws a revision per client, both eras in most runs';
}


// `--protocol REV|mixed`: the revision the simulated clients speak, parsed and checked against the eras the target
// serves (a revision it does not serve is bad input: one line, exit 2).

import { type ProtocolChoice, REVISIONS } from '../sim/config.ts';
import { mixedScope, protocolMismatch } from '../sim/eras.ts';
import type { TargetInfo } from '../targets/target.ts';
import { UsageError } from './usage-error.ts';

/** The protocol `--protocol` asks for; undefined when absent. A value that is no revision is bad input. */
export function parseProtocol(value: unknown): ProtocolChoice | undefined {
  if (value === undefined) return undefined;
  if (value === 'mixed' || (REVISIONS as readonly unknown[]).includes(value)) return value as ProtocolChoice;
  throw new UsageError(`--protocol takes ${REVISIONS.join(', ')} or mixed, got ${JSON.stringify(value)}`);
}

/**
 * Checks the protocol against the target's eras: a modern revision on a legacy-only target, or a legacy one on a
 * modern-only target, is bad input. Returns a line saying what `mixed` draws, or null.
 */
export function checkProtocol(protocol: ProtocolChoice | undefined, target: Pick<TargetInfo, 'name' | 'eras'>): string | null {
  const mismatch = protocolMismatch(protocol, target.eras);
  if (mismatch !== null) throw new UsageError(`--protocol ${protocol}: ${target.name}: ${mismatch}`);
  return protocol === 'mixed' ? mixedScope(target.eras) : null;
}

// How much a finding weighs: its property's severity, and whether it fails a run at a strictness. A finding a
// client's own fault triggered (properties/client-fault.ts) fails nothing at any strictness, nor does a note.

import { CLIENT_PROPERTIES } from './clients/index.ts';
import { PROPERTIES } from './index.ts';
import { STORE_PROPERTIES } from './stores/index.ts';
import type { PropertyName } from './names.ts';
import { type Severity, type Strictness, failsAt, notFailingReason } from './severity.ts';
import type { ClientFault } from './client-fault.ts';

/** What the weight of a finding depends on: its property, and the client fault that triggered it, if any. */
export interface Weighed {
  readonly property: PropertyName;
  readonly triggeredBy?: ClientFault | undefined;
}

/** The severity of a property of any level. */
export function severityOf(name: PropertyName): Severity {
  const property = PROPERTIES.find((candidate) => candidate.name === name) ?? CLIENT_PROPERTIES.find((candidate) => candidate.name === name) ?? STORE_PROPERTIES.find((candidate) => candidate.name === name);
  if (property === undefined) throw new Error(`assertion: unknown property ${name}`);
  return property.severity;
}

/** True when the finding fails a run (its exit code, its JUnit case) at `strictness`. */
export function findingFails(finding: Weighed, strictness: Strictness): boolean {
  return finding.triggeredBy === undefined && failsAt(severityOf(finding.property), strictness);
}

/**
 * Why a finding does not fail at `strictness`, as the printed line says it (`advice: fails only with
 * --strict=advice`, `triggered by the client's fault at step 3: fails nothing`); null when it fails.
 */
export function notFailingWhy(finding: Weighed, strictness: Strictness): string | null {
  if (finding.triggeredBy !== undefined) return `triggered by the client's fault at step ${finding.triggeredBy.step + 1}: charged to the client, fails nothing`;
  return notFailingReason(severityOf(finding.property), strictness);
}

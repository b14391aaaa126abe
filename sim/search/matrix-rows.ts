// The rows of `resumecheck matrix` by name: every built-in target, then the reference under each completed-stream
// policy of the registry (`reference/POLICY`). A name is all a worker thread is given, so this thread and the workers
// find a row's target the same way.

import { type CompletedStreamPolicy, completedStreamPolicies } from '../../core/index.ts';
import { TARGET_ENTRIES } from '../../targets/registry.ts';
import { coreIncarnation, openKitRun } from '../../targets/server-kit.ts';
import type { Target } from '../../targets/target.ts';

/** The reference server with another completed-stream policy: one row per policy of the registry. */
export function policyVariant(policy: CompletedStreamPolicy): Target {
  return {
    name: `reference/${policy.name}`,
    kind: 'reference',
    description: `the reference with the completed-stream policy ${policy.name}: ${policy.rationale}`,
    breaks: [],
    // The core decides both eras whatever its completed-stream policy (that policy is the legacy era's).
    eras: ['legacy', 'modern'],
    open: (options) => openKitRun({ boot: (incarnation, bootOptions) => coreIncarnation(incarnation, bootOptions, { completedStreamPolicy: policy }) }, options),
  };
}

/** The name of every row of the matrix, in order: the built-in targets, then the reference under each policy. */
export function matrixRowNames(): string[] {
  return [...TARGET_ENTRIES.map((entry) => entry.name), ...[...completedStreamPolicies.values()].map((policy) => `reference/${policy.name}`)];
}

/** A row's target by name, or null for a name that is no row (an SDK target is loaded only when its row is asked for). */
export async function matrixRowTarget(name: string): Promise<Target | null> {
  const entry = TARGET_ENTRIES.find((candidate) => candidate.name === name);
  if (entry !== undefined) return entry.load();
  const policy = [...completedStreamPolicies.values()].find((candidate) => `reference/${candidate.name}` === name);
  return policy === undefined ? null : policyVariant(policy);
}

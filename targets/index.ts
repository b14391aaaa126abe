// Every built-in target: the reference, the planted bugs, and the real SDK with its event stores.
import { noHandoffTarget } from './multi-node/no-handoff.target.ts';
import { PLANTED_TARGETS } from './planted/index.ts';
import { referenceModernTarget } from './reference/reference-modern.target.ts';
import { referenceTarget } from './reference/reference.target.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from './sdk/index.ts';
import type { Target } from './target.ts';

/** The built-in targets, in the order `resumecheck targets` lists them. */
// The client targets (targets/clients/) are not here: the 2.x client is an optional peer, so they load only through
// the lazy registry (targets/registry.ts), when a run asks for one.
export const TARGETS: readonly Target[] = [referenceTarget, referenceModernTarget, ...PLANTED_TARGETS, noHandoffTarget, sdkTarget, sdkSharedTarget, sdkCoreTarget];

/** A built-in target by name, or undefined. */
export function findTarget(name: string): Target | undefined {
  return TARGETS.find((target) => target.name === name);
}

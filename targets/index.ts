// Every built-in target: the reference, the planted bugs, and the real SDK (1.x and 2.x) with its event stores.
import { PLANTED_TARGETS } from './planted/index.ts';
import { referenceTarget } from './reference/reference.target.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from './sdk/index.ts';
import { sdk2CoreTarget, sdk2DualBareTarget, sdk2DualTarget, sdk2ExampleTarget, sdk2SharedTarget } from './sdk2/index.ts';
import type { Target } from './target.ts';

/** The built-in targets, in the order `resumecheck targets` lists them. */
export const TARGETS: readonly Target[] = [
  referenceTarget,
  ...PLANTED_TARGETS,
  sdkTarget,
  sdkSharedTarget,
  sdkCoreTarget,
  sdk2ExampleTarget,
  sdk2SharedTarget,
  sdk2CoreTarget,
  sdk2DualTarget,
  sdk2DualBareTarget,
];

/** A built-in target by name, or undefined. */
export function findTarget(name: string): Target | undefined {
  return TARGETS.find((target) => target.name === name);
}

// Every built-in target: the reference, the planted bugs, and the real SDK with its event stores.
import { PLANTED_TARGETS } from './planted/index.ts';
import { referenceTarget } from './reference/reference.target.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from './sdk/index.ts';
import type { Target } from './target.ts';
import { clientSdk2DropsTokenTarget, clientSdk2StormTarget, clientSdk2Target } from './clients/client-sdk2.target.ts';
import { clientSdkDropsTokenTarget, clientSdkStormTarget, clientSdkTarget } from './clients/client-sdk.target.ts';

/** The built-in targets, in the order `resumecheck targets` lists them. */
export const TARGETS: readonly Target[] = [
  referenceTarget,
  ...PLANTED_TARGETS,
  sdkTarget,
  sdkSharedTarget,
  sdkCoreTarget,
  clientSdkTarget,
  clientSdkDropsTokenTarget,
  clientSdkStormTarget,
  clientSdk2Target,
  clientSdk2DropsTokenTarget,
  clientSdk2StormTarget,
];

/** A built-in target by name, or undefined. */
export function findTarget(name: string): Target | undefined {
  return TARGETS.find((target) => target.name === name);
}

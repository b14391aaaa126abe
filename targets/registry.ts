// The built-in targets by name, each with a lazy constructor: the CLI finds and lists targets through this, so a run
// on the reference (or `resumecheck targets`) never loads the SDK, zod and the transport; a run on an SDK target
// loads them when it starts. The library's TARGETS (targets/index.ts) are the same targets, built eagerly.

import { noHandoffTarget } from './multi-node/no-handoff.target.ts';
import { PLANTED_TARGETS } from './planted/index.ts';
import { referenceModernTarget } from './reference/reference-modern.target.ts';
import { referenceTarget } from './reference/reference.target.ts';
import { SDK_TARGET_INFOS } from './sdk/infos.ts';
import { SDK2_TARGET_INFOS } from './sdk2/infos.ts';
import { CLIENT_TARGET_INFOS } from './clients/infos.ts';
import type { Target, TargetInfo } from './target.ts';

/** A built-in target's description, and how to build it. */
export interface TargetEntry extends TargetInfo {
  /** The target; the first call imports its code (the same object every time, as modules are cached). */
  load(): Promise<Target>;
}

function ready(target: Target): TargetEntry {
  const { name, kind, description, breaks, eras, components } = target;
  return { name, kind, description, breaks, ...(eras === undefined ? {} : { eras }), ...(components === undefined ? {} : { components }), load: async () => target };
}

/** Every built-in target, in the order `resumecheck targets` lists them (that of TARGETS, then the 2.x SDK targets). */
export const TARGET_ENTRIES: readonly TargetEntry[] = [
  ready(referenceTarget),
  ready(referenceModernTarget),
  ...PLANTED_TARGETS.map(ready),
  ready(noHandoffTarget),
  { ...SDK_TARGET_INFOS.sdk, load: async () => (await import('./sdk/sdk.target.ts')).sdkTarget },
  { ...SDK_TARGET_INFOS.sdkShared, load: async () => (await import('./sdk/sdk-shared.target.ts')).sdkSharedTarget },
  { ...SDK_TARGET_INFOS.sdkCore, load: async () => (await import('./sdk/sdk-core.target.ts')).sdkCoreTarget },
  // The 2.x line (@modelcontextprotocol/server, an optional peer): only here, not in the library's eager TARGETS.
  { ...SDK2_TARGET_INFOS.sdk2Example, load: async () => (await import('./sdk2/sdk2-example.target.ts')).sdk2ExampleTarget },
  { ...SDK2_TARGET_INFOS.sdk2Shared, load: async () => (await import('./sdk2/sdk2-shared.target.ts')).sdk2SharedTarget },
  { ...SDK2_TARGET_INFOS.sdk2Core, load: async () => (await import('./sdk2/sdk2-core.target.ts')).sdk2CoreTarget },
  { ...SDK2_TARGET_INFOS.sdk2Dual, load: async () => (await import('./sdk2/sdk2-dual.target.ts')).sdk2DualTarget },
  { ...SDK2_TARGET_INFOS.sdk2DualBare, load: async () => (await import('./sdk2/sdk2-dual-bare.target.ts')).sdk2DualBareTarget },
  { ...SDK2_TARGET_INFOS.sdk2Modern, load: async () => (await import('./sdk2/sdk2-modern.target.ts')).sdk2ModernTarget },
  { ...CLIENT_TARGET_INFOS.clientSdk, load: async () => (await import('./clients/client-sdk.target.ts')).clientSdkTarget },
  { ...CLIENT_TARGET_INFOS.clientSdkDropsToken, load: async () => (await import('./clients/client-sdk.target.ts')).clientSdkDropsTokenTarget },
  { ...CLIENT_TARGET_INFOS.clientSdkStorm, load: async () => (await import('./clients/client-sdk.target.ts')).clientSdkStormTarget },
  { ...CLIENT_TARGET_INFOS.clientSdk2, load: async () => (await import('./clients/client-sdk2.target.ts')).clientSdk2Target },
  { ...CLIENT_TARGET_INFOS.clientSdk2DropsToken, load: async () => (await import('./clients/client-sdk2.target.ts')).clientSdk2DropsTokenTarget },
  { ...CLIENT_TARGET_INFOS.clientSdk2Storm, load: async () => (await import('./clients/client-sdk2.target.ts')).clientSdk2StormTarget },
];

/** A built-in target's entry by name, or undefined. */
export function targetEntry(name: string): TargetEntry | undefined {
  return TARGET_ENTRIES.find((entry) => entry.name === name);
}

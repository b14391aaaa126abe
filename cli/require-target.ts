// Finding the target a command names: a built-in one through the lazy registry (the SDK is loaded only for an SDK
// target), or a user's store module, `module:<path>[#export][+shared]`, as check-store's traces name it.

import { TARGET_ENTRIES, targetEntry } from '../targets/registry.ts';
import type { Target } from '../targets/target.ts';
import { UsageError } from './usage-error.ts';

/** The target `name` stands for; an unknown or missing name is bad input. */
export async function requireTarget(name: string | undefined): Promise<Target> {
  if (name === undefined) throw new UsageError('--target is required; `resumecheck targets` lists them');
  // A deployment of several nodes, `NAME@N:BALANCER[:lagL]`, as fuzz --nodes names it in its traces.
  if (name.includes('@')) {
    const { parseMultiNodeName, multiNodeTarget, TopologyError } = await import('../targets/multi-node/multi-node.target.ts');
    try {
      const parsed = parseMultiNodeName(name);
      if (parsed !== null) return multiNodeTarget(await requireTarget(parsed.base), parsed.topology);
    } catch (error) {
      if (error instanceof TopologyError) throw new UsageError(`target ${JSON.stringify(name)}: ${error.message}`);
      throw error;
    }
  }
  // The prefix is module.target.ts's MODULE_TARGET_PREFIX, spelled out so that other names do not load that module.
  if (name.startsWith('module:')) {
    const { moduleTargetFromName } = await import('../targets/module/module.target.ts');
    const target = moduleTargetFromName(name);
    if (target !== null) return target;
  }
  const entry = targetEntry(name);
  if (entry === undefined) throw new UsageError(`unknown target ${JSON.stringify(name)}; known: ${TARGET_ENTRIES.map((t) => t.name).join(', ')}`);
  try {
    return await entry.load();
  } catch (error) {
    // The 2.x SDK targets need an optional peer of the package: its absence is the user's setup, said in one line.
    const missing = missingPackageOf(error);
    if (missing !== null) throw new UsageError(`target ${name} needs the package ${missing}, which is not installed (npm install ${missing})`);
    throw error;
  }
}

/** The npm package a failed import could not find, or null when the failure is something else. */
export function missingPackageOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return null;
  const match = /Cannot find package '((?:@[^/']+\/)?[^/']+)'/.exec(String((error as { message?: unknown }).message));
  return match?.[1] ?? null;
}

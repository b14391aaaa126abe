// Finding the target a command names: a built-in one through the lazy registry (the SDK is loaded only for an SDK
// target), or a user's store module, `module:<path>[#export][+shared]`, as check-store's traces name it.

import { TARGET_ENTRIES, targetEntry } from '../targets/registry.ts';
import type { Target } from '../targets/target.ts';
import { UsageError } from './usage-error.ts';

/** The target `name` stands for; an unknown or missing name is bad input. */
export async function requireTarget(name: string | undefined): Promise<Target> {
  if (name === undefined) throw new UsageError('--target is required; `resumecheck targets` lists them');
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
    // An SDK line is an optional peer: a target whose package is not installed is a setup to fix, not a crash.
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(error instanceof Error ? error.message : '');
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && missing !== null) {
      throw new UsageError(`target ${name} needs ${missing[1]}, which is not installed (npm install --save-dev ${missing[1]})`);
    }
    throw error;
  }
}

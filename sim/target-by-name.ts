// Finding a target by its name alone: what a worker thread is given, since a target object cannot cross threads.
// Through the lazy registry, so a worker on the reference never loads the SDK.

import { targetEntry } from '../targets/registry.ts';
import type { Target } from '../targets/target.ts';

/** A built-in target or a user's store module (`module:<path>...`) by name, or null. */
export async function targetByName(name: string): Promise<Target | null> {
  if (name.startsWith('module:')) {
    const { moduleTargetFromName } = await import('../targets/module/module.target.ts');
    return moduleTargetFromName(name);
  }
  return (await targetEntry(name)?.load()) ?? null;
}

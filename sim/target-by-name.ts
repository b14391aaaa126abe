// Finding a target by its name alone: what a worker thread is given, since a target object cannot cross threads.

import { findTarget } from '../targets/index.ts';
import { moduleTargetFromName } from '../targets/module/module.target.ts';
import type { Target } from '../targets/target.ts';

/** A built-in target or a user's store module (`module:<path>...`) by name, or null. */
export function targetByName(name: string): Target | null {
  return findTarget(name) ?? moduleTargetFromName(name);
}

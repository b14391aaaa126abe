// A user's EventStore module at the store level (sim/levels/store-level.ts): the store driven directly under its
// contract. Its name is the module target's, `module:<path>[#export][+shared][+durable]`; its traces record the
// level, so `resumecheck replay` rebuilds this target, not the store inside the SDK transport.

import { type StoreLevelOptions, storeLevel } from '../../sim/levels/store-level.ts';
import type { LevelTarget } from '../../sim/levels/level.ts';
import { MODULE_TARGET_PREFIX, type StoreSource, moduleSourceOfName, moduleTargetName } from './module.target.ts';

/** The store from `source` at the store level, used as `options` say. */
export function storeLevelTarget(source: StoreSource, options: StoreLevelOptions): LevelTarget {
  const name = moduleTargetName(source.ref, options);
  // A call that never settles costs its run the call timeout: searches and shrinks bound what such runs may cost.
  let timeoutsWaited = 0;
  const level = storeLevel(source, {
    ...options,
    onRunEnd(report) {
      timeoutsWaited += report.timeoutsWaited;
      options.onRunEnd?.(report);
    },
  });
  return {
    name,
    kind: 'module',
    description: `the EventStore from ${name.slice(MODULE_TARGET_PREFIX.length)} driven directly under its contract${options.shared ? ', one instance shared by all sessions of an incarnation' : ', one instance per session'}`,
    breaks: [],
    // The store may keep what the simulator does not reset between runs (globals, files, a database).
    flakyRuns: true,
    timeoutsWaited: () => timeoutsWaited,
    level,
    open() {
      throw new Error(`assertion: ${name} at the store level is run by the engine at its level, not through open()`);
    },
  };
}

/** The store-level target a module target's name stands for (a store-level trace's), or null for other names. */
export function storeLevelTargetFromName(name: string): LevelTarget | null {
  const named = moduleSourceOfName(name);
  return named === null ? null : storeLevelTarget(named.source, { shared: named.shared, durable: named.durable });
}

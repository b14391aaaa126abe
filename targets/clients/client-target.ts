// A client target: a TargetInfo whose level is the client level with one client application; its `open` (the server
// level's entry) is never used, since the engine runs a target with a level at that level.

import { clientLevel } from '../../sim/levels/client-level.ts';
import type { LevelTarget } from '../../sim/levels/level.ts';
import type { TargetInfo } from '../target.ts';
import type { ClientFactory } from './client-application.ts';

/** The target that runs `factory`'s client at the client level; `sdk` names the client package as installed. */
export function clientTarget(info: TargetInfo, factory: ClientFactory, sdk: string): LevelTarget {
  return {
    ...info,
    sdk,
    breaks: [...info.breaks],
    level: clientLevel(factory),
    open() {
      throw new Error(`assertion: ${info.name} is a client target; the engine runs it at its level, not through open()`);
    },
  };
}

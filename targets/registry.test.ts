// The registry is the CLI's view of TARGETS: the same names, descriptions and order, and each lazy constructor
// builds the very target the library exports; then the 2.x SDK targets and the client targets, which the library's
// eager TARGETS leave out (@modelcontextprotocol/server and /client are optional peers: importing the library must not
// need them).

import { describe, expect, it } from 'vitest';
import { TARGETS } from './index.ts';
import { TARGET_ENTRIES, targetEntry } from './registry.ts';
import { SDK2_TARGET_INFOS } from './sdk2/infos.ts';
import type { TargetInfo } from './target.ts';
import { CLIENT_TARGET_INFOS } from './clients/infos.ts';
import { levelOf } from '../sim/levels/level.ts';

describe('the lazy target registry', () => {
  const info = ({ name, kind, description, breaks, eras }: TargetInfo) => ({ name, kind, description, breaks: [...breaks], eras });

  it('lists what TARGETS lists, in the same order, then the 2.x SDK targets, then the client targets', () => {
    expect(TARGET_ENTRIES.map(info)).toEqual([...TARGETS, ...Object.values(SDK2_TARGET_INFOS), ...Object.values(CLIENT_TARGET_INFOS)].map(info));
  });

  it('loads each 2.x SDK entry as a target that says what its entry says', async () => {
    for (const described of Object.values(SDK2_TARGET_INFOS)) expect(info(await targetEntry(described.name)!.load())).toEqual(info(described));
  });

  it('loads each client entry as a target that says what its entry says and runs at its own level', async () => {
    for (const described of Object.values(CLIENT_TARGET_INFOS)) {
      const target = await targetEntry(described.name)!.load();
      expect(info(target)).toEqual(info(described));
      expect(levelOf(target)).toBeDefined();
    }
  });

  it('loads each entry as the target TARGETS holds', async () => {
    for (const target of TARGETS) expect(await targetEntry(target.name)!.load()).toBe(target);
    expect(targetEntry('no-such-target')).toBeUndefined();
  });
});

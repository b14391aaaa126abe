// The registry is the CLI's view of TARGETS: the same names, descriptions and order, and each lazy constructor
// builds the very target the library exports.

import { describe, expect, it } from 'vitest';
import { TARGETS } from './index.ts';
import { TARGET_ENTRIES, targetEntry } from './registry.ts';
import type { TargetInfo } from './target.ts';

describe('the lazy target registry', () => {
  it('lists what TARGETS lists, in the same order', () => {
    const info = ({ name, kind, description, breaks }: TargetInfo) => ({ name, kind, description, breaks: [...breaks] });
    expect(TARGET_ENTRIES.map(info)).toEqual(TARGETS.map(info));
  });

  it('loads each entry as the target TARGETS holds', async () => {
    for (const target of TARGETS) expect(await targetEntry(target.name)!.load()).toBe(target);
    expect(targetEntry('no-such-target')).toBeUndefined();
  });
});

// The registry is the CLI's view of TARGETS: the same names, descriptions and order, and each lazy constructor
// builds the very target the library exports; then the client targets, which only the registry loads.

import { describe, expect, it } from 'vitest';
import { TARGETS } from './index.ts';
import { TARGET_ENTRIES, targetEntry } from './registry.ts';
import type { TargetInfo } from './target.ts';

describe('the lazy target registry', () => {
  it('lists what TARGETS lists, in the same order', () => {
    const info = ({ name, kind, description, breaks }: TargetInfo) => ({ name, kind, description, breaks: [...breaks] });
    expect(TARGET_ENTRIES.slice(0, TARGETS.length).map(info)).toEqual(TARGETS.map(info));
  });

  it('then lists the client targets, each loading as a target that runs at its own level', async () => {
    const clients = TARGET_ENTRIES.slice(TARGETS.length);
    expect(clients.map((entry) => entry.name)).toEqual(['client-sdk', 'client-sdk-drops-token', 'client-sdk-storm', 'client-sdk2', 'client-sdk2-drops-token', 'client-sdk2-storm']);
    for (const entry of clients) {
      const target = await entry.load();
      expect(target.name).toBe(entry.name);
      expect(target.level).toBeDefined();
    }
  });

  it('loads each entry as the target TARGETS holds', async () => {
    for (const target of TARGETS) expect(await targetEntry(target.name)!.load()).toBe(target);
    expect(targetEntry('no-such-target')).toBeUndefined();
  });
});

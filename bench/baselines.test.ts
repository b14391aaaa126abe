// The bench's baselines say what they cover from tables, and these tables are held against the code: the fast-check
// baseline's commands are the ones FC_COMMANDS lists, in its order; the bare loop's kinds are as many as
// BARE_ENGINE_KINDS names; every kind either names is one of the engine's. A baseline that gains or loses a kind
// without its table fails here, so the counts the bench prints cannot drift.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTION_KINDS } from '../sim/config.ts';
import { BARE_ENGINE_KINDS, BARE_KIND_COUNT } from './bare-loop.ts';
import { FC_COMMANDS, FC_ENGINE_KINDS, commandArbitraries } from './fc-commands.ts';

describe("the baselines' tables of what they cover", () => {
  it('fc-commands: one arbitrary a listed command, in order, each drawing commands of that name', () => {
    const arbitraries = commandArbitraries({ clients: 2, callsPerSessionMax: 3, restartsMax: 2, workProgressSteps: 2, windowEventsMax: 2 } as Parameters<typeof commandArbitraries>[0]);
    expect(arbitraries).toHaveLength(FC_COMMANDS.length);
    const names = arbitraries.map((arbitrary) => String(fc.sample(arbitrary, { numRuns: 1, seed: 1 })[0]).replace(/\(.*$/, ''));
    expect(names).toEqual(FC_COMMANDS.map(([command]) => command));
  });

  it('bare-loop: as many kinds as its table names', () => {
    expect(BARE_ENGINE_KINDS).toHaveLength(BARE_KIND_COUNT);
  });

  it("every kind they name is one of the engine's, named once", () => {
    for (const kinds of [FC_ENGINE_KINDS, BARE_ENGINE_KINDS]) {
      for (const kind of kinds) expect(ACTION_KINDS).toContain(kind);
      expect(new Set(kinds).size).toBe(kinds.length);
    }
  });
});

// Goal 4's comparison of shrunk traces (bench/goals.ts): each property is held to its shortest trace on either side, so
// a checkout that keeps several mechanisms of a property is not told its shrinker lost ground when its search met a
// longer mechanism first, and is told so when its shortest trace of a property is longer than main's.
import { describe, expect, it } from 'vitest';
import { type ShrinkFinding, compareShortest } from './goals.ts';

function found(property: string, shrunkLength: number, signature: string | null = null): ShrinkFinding {
  return { property, signature, run: 1, originalLength: shrunkLength + 3, shrunkLength, evaluations: 10, cutShort: false };
}

describe("goal 4: the shrunk traces against main's", () => {
  it("a property's shortest trace decides, whichever of its mechanisms came first", () => {
    const ours = [found('no-hang', 3, 'settled / an earlier cursor'), found('no-hang', 2, 'settled / a cursor never delivered'), found('no-lost-result', 3)];
    const main = [found('no-hang', 2), found('no-lost-result', 3)];
    expect(compareShortest(ours, main)).toEqual({ compared: "the same properties and shortest lengths as main's", sameOrShorter: true });
  });

  it('a shortest trace longer than main’s is named, and so is one shorter', () => {
    expect(compareShortest([found('no-hang', 3), found('no-lost-result', 3)], [found('no-hang', 2), found('no-lost-result', 3)])).toEqual({
      compared: "⚠ longer than main's: no-hang",
      sameOrShorter: false,
    });
    expect(compareShortest([found('no-hang', 2), found('no-lost-result', 2)], [found('no-hang', 2), found('no-lost-result', 3)])).toEqual({
      compared: "the same properties, 1 shorter than main's: no-lost-result",
      sameOrShorter: true,
    });
  });

  it("a property found on one side only is not the same findings", () => {
    expect(compareShortest([found('no-hang', 2)], [found('no-hang', 2), found('no-lost-result', 3)]).sameOrShorter).toBe(false);
    expect(compareShortest([found('no-hang', 2), found('no-lost-result', 3)], [found('no-hang', 2)]).compared).toBe("⚠ other properties than main's");
  });
});

// Goal 4's comparison of shrunk traces (bench/goals.ts): each property is held to its shortest trace on either side, so
// a checkout that keeps several mechanisms of a property is not told its shrinker lost ground when its search met a
// longer mechanism first, and is told so when its shortest trace of a property is longer than main's.
import { describe, expect, it } from 'vitest';
import { type ShrinkFinding, compareShortest, suiteFailure } from './goals.ts';

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

// What vitest 4.1.12 printed for a file with one failing test (its colours kept: it prints them into a pipe too), cut
// after the failure's first lines.
const VITEST_STDOUT = "\n\u001b[1m\u001b[30m\u001b[46m RUN \u001b[49m\u001b[39m\u001b[22m \u001b[36mv4.1.12 \u001b[39m\u001b[90m/work/main\u001b[39m\n\n \u001b[31m\u276f\u001b[39m tmpfail/x.test.ts \u001b[2m(\u001b[22m\u001b[2m2 tests\u001b[22m\u001b[2m | \u001b[22m\u001b[31m1 failed\u001b[39m\u001b[2m)\u001b[22m\u001b[32m 13\u001b[2mms\u001b[22m\u001b[39m\n     \u001b[32m\u2713\u001b[39m passes\u001b[32m 2\u001b[2mms\u001b[22m\u001b[39m\n\u001b[31m     \u001b[31m\u00d7\u001b[31m fails under load\u001b[39m\u001b[32m 8\u001b[2mms\u001b[22m\u001b[39m\n\n";
const VITEST_STDERR = "\n\u001b[31m\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u001b[39m\u001b[1m\u001b[41m Failed Tests 1 \u001b[49m\u001b[22m\u001b[31m\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u001b[39m\n\n\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m tmpfail/x.test.ts\u001b[2m > \u001b[22mgroup\u001b[2m > \u001b[22mfails under load\n\u001b[31m\u001b[1mAssertionError\u001b[22m: expected 1 to be 2 // Object.is equality\u001b[39m\n\n\u001b[32m- Expected\u001b[39m\n\u001b[31m+ Received\u001b[39m\n";

describe('goal 2: why the suite failed', () => {
  it('names each failed test with the first line of its error', () => {
    expect(suiteFailure({ exitCode: 1, stdout: VITEST_STDOUT, stderr: VITEST_STDERR })).toBe(
      'exit 1: 1 failed: tmpfail/x.test.ts > group > fails under load (AssertionError: expected 1 to be 2 // Object.is equality)',
    );
  });

  it('gives the last line of the output when no test is named (the build or the type check failed)', () => {
    expect(suiteFailure({ exitCode: 2, stdout: '', stderr: "sim/x.ts(3,1): error TS2304: Cannot find name 'y'.\n" })).toBe("exit 2: sim/x.ts(3,1): error TS2304: Cannot find name 'y'.");
  });
});

// The policy table (cli/policy-table.ts): the same seed gives the same table, and on the same walks each policy shows
// the cost that tells it apart (seed 1, 150 runs per policy).

import { describe, expect, it } from 'vitest';
import { type PolicyRow, measurePolicies, renderPolicyTable } from './policy-table.ts';

const OPTIONS = { seed: '1', runs: 150 };

function row(rows: readonly PolicyRow[], policy: string): PolicyRow {
  return rows.find((candidate) => candidate.policy === policy)!;
}

describe('the policy table (seed 1, 150 runs per policy)', () => {
  it('is the same table twice, and each policy pays its own cost on the same walks', async () => {
    const rows = await measurePolicies(OPTIONS);
    expect(renderPolicyTable(await measurePolicies(OPTIONS), OPTIONS)).toEqual(renderPolicyTable(rows, OPTIONS));
    expect(rows.map((entry) => entry.policy)).toEqual(['replay-unsent', 'replay-tail', 'fresh-literal', 'fresh-with-reset']);
    const unsent = row(rows, 'replay-unsent');
    // replay-tail alone delivers a result twice (a stale cursor gets the result it had).
    for (const entry of rows) expect(entry.deliveredTwice > 0, entry.policy).toBe(entry.policy === 'replay-tail');
    // fresh-literal loses results for good; fresh-with-reset withholds them and runs appends again the most.
    expect(row(rows, 'fresh-literal').lostForGood).toBeGreaterThan(2 * unsent.lostForGood);
    expect(row(rows, 'fresh-with-reset').withheld).toBeGreaterThan(2 * unsent.withheld);
    expect(row(rows, 'fresh-with-reset').appendsAgain).toBeGreaterThan(unsent.appendsAgain);
    // The reference's own cost: it withholds what it wrote (a lost tail, a stale cursor) where replay-tail replays it.
    expect(unsent.withheld).toBeGreaterThan(row(rows, 'replay-tail').withheld);
  });
});

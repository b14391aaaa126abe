// `resumecheck policy-table`: the completed-stream policies measured as a trade (cli/policy-table.ts), printed as the
// Markdown table docs/decision-table.md and the README show. Deterministic: the same seed and runs print the same table.

import { sharedWallMs } from '../sim/clock.ts';
import { DEFAULT_CONFIG } from '../sim/config.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { measurePolicies, renderPolicyTable } from './policy-table.ts';
import { UsageError, parseWhole } from './usage-error.ts';

/** Runs per policy unless --runs says otherwise: a few seconds each. */
export const POLICY_TABLE_RUNS_DEFAULT = 2_000;

/** Runs `resumecheck policy-table`. */
export async function runPolicyTable({ values }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const seed = (values['seed'] as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const runs = values['runs'] === undefined ? POLICY_TABLE_RUNS_DEFAULT : parseWhole(values['runs'] as string, '--runs', 1, 1_000_000);
  const options = { seed, runs };
  const rows = await measurePolicies(options);
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('policy-table', { seed, runs }, sharedWallMs() - startedMs, { policies: rows }), null, 2));
  else for (const line of renderPolicyTable(rows, options)) io.out(line);
  return 0;
}

// The completed-stream policy as a trade, measured: the four policies (core/policy.ts), each on the target that
// differs from the reference by its policy alone, under one fault model with clients that re-issue a call after a
// reset or a 404 (seed 004), over the same seeded random walks. Per policy, from the same runs: how many calls got
// their result twice, never got it, were answered by a reset that withheld it, and how many appends ran again.

import { planWalk, walkChoices } from '../sim/choices.ts';
import { DEFAULT_CONFIG, type SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { runSeed } from '../sim/search/fuzz-search.ts';
import { requireTarget } from './require-target.ts';
import { MODEL } from '../model/index.ts';
import type { World } from '../sim/world.ts';

/** A policy measured: its name (core/policy.ts) and the target that runs the reference with it. */
export interface PolicyUnderTest {
  readonly policy: string;
  readonly target: string;
}

/** The four policies, the reference's first. */
export const POLICIES_UNDER_TEST: readonly PolicyUnderTest[] = [
  { policy: 'replay-unsent', target: 'reference' },
  { policy: 'replay-tail', target: 'replay-tail' },
  { policy: 'fresh-literal', target: 'fresh-literal' },
  { policy: 'fresh-with-reset', target: 'fresh-with-reset' },
];

/** Resets that answer a cursor with a signal where the server held the result (core/decide.ts ResetSignal). */
const WITHHOLDING_RESETS: ReadonlySet<string> = new Set(['possibly-delivered', 'result-withheld']);

/** What one policy's runs came to, counted per call. */
export interface PolicyRow {
  readonly policy: string;
  readonly target: string;
  readonly runs: number;
  readonly calls: number;
  /** Calls whose result arrived at their client twice or more. */
  readonly deliveredTwice: number;
  /**
   * Calls whose result never arrived at their client, once the run (its liveness phase included) was over, in a
   * session still live: what the server's answers lost, re-issues included.
   */
  readonly lostForGood: number;
  /**
   * Calls whose result never arrived and whose session ended (deleted, expired, lost in a restart) with no room or no
   * chance left to re-issue them: the fault model's losses, which no completed-stream policy decides.
   */
  readonly lostWithSession: number;
  /** Calls that got a reset withholding a result the server held (possibly delivered, or withheld outright) before any result arrived. */
  readonly withheld: number;
  /** Append calls that executed more than once. */
  readonly appendsAgain: number;
  /** Calls re-issued under a new request ID (after a reset or a 404). */
  readonly reissued: number;
}

/** How the table is made. */
export interface PolicyTableOptions {
  readonly seed: string;
  readonly runs: number;
}

/** The fault model: the default config, with clients that re-issue after a reset or a 404. */
export function policyTableConfig(seed: string): SimConfig {
  return { ...DEFAULT_CONFIG, seed, reissueAfterReset: true };
}

/** The per-call counts of one policy's runs. */
type Counts = { -readonly [K in 'calls' | 'deliveredTwice' | 'lostForGood' | 'lostWithSession' | 'withheld' | 'appendsAgain' | 'reissued']: number };

/** Counts what every call of a finished run came to, into `into`. */
function countCalls(world: World, into: Counts): void {
  for (const call of world.calls) {
    // A request sent under another call's ID is that call's client reusing it, not a call of its own.
    if (call.reuses !== null || call.session.id === '') continue;
    into.calls += 1;
    if (call.resultsReceived >= 2) into.deliveredTwice += 1;
    if (call.resultsReceived === 0 && call.session.state === MODEL.session.state.live) into.lostForGood += 1;
    if (call.resultsReceived === 0 && call.session.state !== MODEL.session.state.live) into.lostWithSession += 1;
    if (call.reissues > 0) into.reissued += 1;
    if (call.tool === 'append' && (world.appends.get(call.id) ?? 0) > 1) into.appendsAgain += 1;
    const withheld = world.connections.some((connection) => {
      if (connection.view < 0 || connection.resetReason === null || !WITHHOLDING_RESETS.has(connection.resetReason)) return false;
      return world.views[connection.view]!.call === call;
    });
    if (withheld) into.withheld += 1;
  }
}

/** Measures every policy over the same `runs` seeded walks (run seed `${seed}.${n}`, as the fuzz draws them). */
export async function measurePolicies(options: PolicyTableOptions): Promise<PolicyRow[]> {
  const rows: PolicyRow[] = [];
  for (const { policy, target: name } of POLICIES_UNDER_TEST) {
    const target = await requireTarget(name);
    const counts: Counts = { calls: 0, deliveredTwice: 0, lostForGood: 0, lostWithSession: 0, withheld: 0, appendsAgain: 0, reissued: 0 };
    const inspect = (world: World) => countCalls(world, counts);
    const config = policyTableConfig(options.seed);
    for (let run = 1; run <= options.runs; run += 1) {
      const runConfig: SimConfig = { ...config, seed: runSeed(config.seed, run) };
      // No property is checked, so no run stops early: every run is played out, its liveness phase included.
      await runSimulation(target, runConfig, walkChoices(planWalk(runConfig.seed, runConfig.stepsMax)), { properties: [], inspect });
    }
    rows.push({ policy, target: name, runs: options.runs, ...counts });
  }
  return rows;
}

/** The table as Markdown rows (the README and docs/decision-table.md print it as it comes). */
export function renderPolicyTable(rows: readonly PolicyRow[], options: PolicyTableOptions): string[] {
  const per = (count: number, calls: number) => `${count} (${calls === 0 ? '0' : ((count / calls) * 100).toFixed(1)}%)`;
  const lines = [
    `| policy | calls | result delivered twice | result lost for good | result withheld by a reset | append ran again | re-issued | lost with its session |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|`,
  ];
  for (const row of rows) {
    lines.push(
      `| \`${row.policy}\`${row.target === 'reference' ? ' (reference)' : ''} | ${row.calls} | ${per(row.deliveredTwice, row.calls)} | ${per(row.lostForGood, row.calls)} | ${per(row.withheld, row.calls)} | ${per(row.appendsAgain, row.calls)} | ${per(row.reissued, row.calls)} | ${per(row.lostWithSession, row.calls)} |`,
    );
  }
  lines.push('');
  lines.push(
    `${rows[0]?.runs ?? 0} runs per policy, seed ${options.seed}, the same walks for each (default config, clients re-issuing after a reset or a 404); ` +
      `regenerate: \`npx tsx cli/run.ts policy-table --runs ${options.runs} --seed ${options.seed}\`.`,
  );
  return lines;
}

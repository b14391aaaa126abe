// Runs every SDK server target on several nodes behind every balancer through the fuzz's own runs (the same run
// seeds and walks as `resumecheck fuzz --seed S --runs R`), and says for each configuration whether any run crashed
// the harness (an assertion) rather than judging the target. No property is judged, so no run ends early at a
// violation and nothing is shrunk: a run goes on to its last step, which reaches every state the fuzz's run reaches.
//
//   npx tsx targets/multi-node/check-sdk-deployments.ts [--runs R] [--seeds 1,2,3] [--nodes 2,3] [--target NAME]... [--judge]
//
// With --judge the properties are judged as the fuzz judges them (a run a violation ended is made again without that
// property, until one ends with none: every property a run violates is met) and each line
// lists the properties the runs violated, in the order first met (what `fuzz` would report, before shrinking), and how
// many sessions survived their second request. Prints one line a configuration; exits 1 if any crashed, else 0.

import { parseArgs } from 'node:util';
import { emptyCoverage } from '../../sim/coverage.ts';
import { createControl, searchLane } from '../../sim/search/fuzz-search.ts';
import { DEFAULT_CONFIG, resolveConfig } from '../../sim/config.ts';
import { monotonicMs } from '../../sim/clock.ts';
import { TARGET_ENTRIES } from '../registry.ts';
import { resolveTarget } from '../resolve-target.ts';
import { BALANCER_NAMES } from './balancer.ts';

/** The SDK server targets (kind `sdk`): the ones whose nodes are SDK apps. */
export const SDK_SERVER_TARGETS: readonly string[] = TARGET_ENTRIES.filter((entry) => entry.kind === 'sdk').map((entry) => entry.name);

/** What one configuration's runs did. */
export interface DeploymentCheck {
  readonly target: string;
  readonly seed: string;
  readonly runs: number;
  readonly steps: number;
  /** The harness's failure, or null when every run completed. */
  readonly crash: string | null;
  /** Judged: the properties violated, in the order first met; not judged: null. */
  readonly violated: readonly string[] | null;
  /** Judged: sessions established and those that survived their second request. */
  readonly sessions: { readonly established: number; readonly survived: number } | null;
}

/** Makes the fuzz's first `runsMax` runs of `name` deployed on `nodes` nodes behind `balancer`, seeded `seed`. */
export async function checkDeployment(
  name: string,
  nodes: number,
  balancer: (typeof BALANCER_NAMES)[number],
  seed: string,
  runsMax: number,
  options: { readonly judge: boolean } = { judge: false },
): Promise<DeploymentCheck> {
  const target = await resolveTarget({ form: 'deployed', base: { form: 'built-in', name }, topology: { nodes, balancer, storeLagSteps: 0 } });
  const plan = {
    config: resolveConfig({ ...DEFAULT_CONFIG, seed }),
    runsMax,
    shard: { index: 1, count: 1 },
    properties: options.judge ? null : [],
    stopAtFirst: false,
    deadlineMs: null,
    deadlineFoundMs: null,
    perProperty: 1,
    coverage: options.judge,
  };
  let runs = 0;
  let steps = 0;
  const violated: string[] = [];
  const coverage = options.judge ? emptyCoverage() : null;
  const judged = () => ({ violated: options.judge ? violated : null, sessions: coverage === null ? null : { ...coverage.sessions } });
  try {
    const lane = await searchLane(target, plan, createControl({ shared: false }), {
      onCandidate: (candidate) => {
        if (!violated.includes(candidate.violation.property)) violated.push(candidate.violation.property);
      },
      onProgress: (more, moreSteps) => {
        runs += more;
        steps += moreSteps;
      },
    }, coverage);
    return { target: target.name, seed, runs: lane.runs, steps: lane.steps, crash: null, ...judged() };
  } catch (error) {
    // The message and where it was thrown (the first frames of the stack), on one line.
    const where = error instanceof Error ? (error.stack ?? '').split('\n').slice(1, 4).map((line) => line.trim()).join(' < ') : '';
    return { target: target.name, seed, runs, steps, crash: `${error instanceof Error ? error.message : String(error)}${where === '' ? '' : ` (${where})`}`, ...judged() };
  }
}

const USAGE = 'usage: npx tsx targets/multi-node/check-sdk-deployments.ts [--runs R] [--seeds 1,2,3] [--nodes 2,3] [--target NAME]... [--judge]';

/** Bad input: one line and exit 2, never a stack trace. */
function badInput(message: string): number {
  process.stderr.write(`check-sdk-deployments: ${message}\n${USAGE}\n`);
  return 2;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        runs: { type: 'string', default: '2000' },
        seeds: { type: 'string', default: '1,2,3' },
        nodes: { type: 'string', default: '2,3' },
        target: { type: 'string', multiple: true },
        judge: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return badInput((error as Error).message.split('\n')[0]!);
  }
  if (!/^[1-9]\d{0,6}$/.test(values.runs)) return badInput(`--runs takes a whole number from 1, got ${JSON.stringify(values.runs)}`);
  if (!/^[1-9]\d{0,2}(,[1-9]\d{0,2})*$/.test(values.nodes)) return badInput(`--nodes takes node counts from 1, comma-separated, got ${JSON.stringify(values.nodes)}`);
  const unknown = (values.target ?? []).find((name) => !SDK_SERVER_TARGETS.includes(name));
  if (unknown !== undefined) return badInput(`--target ${JSON.stringify(unknown)} is no SDK server target; known: ${SDK_SERVER_TARGETS.join(', ')}`);
  const runsMax = Number(values.runs);
  const seeds = values.seeds.split(',');
  const nodeCounts = values.nodes.split(',').map(Number);
  const targets = values.target ?? SDK_SERVER_TARGETS;
  let crashed = 0;
  for (const seed of seeds) {
    for (const name of targets) {
      for (const nodes of nodeCounts) {
        for (const balancer of BALANCER_NAMES) {
          const started = monotonicMs();
          const check = await checkDeployment(name, nodes, balancer, seed, runsMax, { judge: values.judge });
          const seconds = ((monotonicMs() - started) / 1000).toFixed(1);
          if (check.crash !== null) crashed += 1;
          const judged = check.violated === null ? '' : `; violated: ${check.violated.length === 0 ? 'none' : check.violated.join(', ')}; sessions surviving their second request: ${check.sessions!.survived} of ${check.sessions!.established}`;
          console.log(`${check.crash === null ? 'ok   ' : 'CRASH'} ${check.target} seed ${seed}: ${check.runs} runs, ${check.steps} steps, ${seconds} s${judged}${check.crash === null ? '' : `: ${check.crash}`}`);
        }
      }
    }
  }
  console.log(crashed === 0 ? 'no configuration crashed' : `${crashed} configurations crashed`);
  return crashed === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();

// How long `resumecheck --help` takes, wall time of a whole process: the compiled bin (bin/resumecheck.mjs running
// dist/, as installed) against the same CLI run from its TypeScript sources through tsx's loader (how bin/ ran
// before the build existed; it gains the same lazy loading, so the ratio is the compile step's share), with plain
// `node -e 0` as the floor neither can go under; and, labelled, the whole library loaded through tsx. Needs dist/ built (`npm run bench` builds first).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, nowMs } from './measure.ts';

/** The checkout: bench/precompiled.mjs runs the compiled bench from elsewhere and says where it is. */
const ROOT = process.env['RESUMECHECK_ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));
const TIMEOUT_MS = 30_000;

/** The three ways timed, each a command line from the repository root. */
const WAYS = {
  node: ['-e', '0'],
  compiled: ['bin/resumecheck.mjs', '--help'],
  tsx: ['--import', 'tsx', 'cli/run.ts', '--help'],
  // Not --help: every module of the library through tsx, which is what the bin did before printing --help when it
  // ran the sources and cli/main.ts imported every command, target and the SDK up front. Labelled as such.
  tsxEverything: ['--import', 'tsx', '--input-type=module', '-e', "await import('./index.ts')"],
} as const;

type Way = keyof typeof WAYS;

/** The figure: median wall times over alternating rounds. */
export interface CliStartup {
  readonly rounds: number;
  readonly medianMs: Readonly<Record<Way, number>>;
  readonly samplesMs: Readonly<Record<Way, readonly number[]>>;
  /** compiled / tsx. */
  readonly ratio: number;
  /** compiled / tsxEverything. */
  readonly ratioEverything: number;
}

function timeOnce(way: Way): number {
  const started = nowMs();
  const child = spawnSync(process.execPath, WAYS[way], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: TIMEOUT_MS });
  const elapsed = nowMs() - started;
  if (child.status !== 0) throw new Error(`${WAYS[way].join(' ')} exited ${String(child.status)}: ${child.stderr.toString().split('\n')[0]}`);
  return elapsed;
}

/** Times each way `rounds` times, interleaved so a burst of load elsewhere hits every way alike (one warm-up round first). */
export function measureCliStartup(rounds: number): CliStartup {
  if (!existsSync(`${ROOT}dist/cli/run.js`)) throw new Error('dist/ is not built: run `npm run build` (npm run bench does)');
  const samples: Record<Way, number[]> = { node: [], compiled: [], tsx: [], tsxEverything: [] };
  for (const way of Object.keys(WAYS) as Way[]) timeOnce(way);
  for (let round = 0; round < rounds; round += 1) {
    for (const way of Object.keys(WAYS) as Way[]) samples[way].push(timeOnce(way));
  }
  const medianMs = { node: median(samples.node), compiled: median(samples.compiled), tsx: median(samples.tsx), tsxEverything: median(samples.tsxEverything) };
  return { rounds, medianMs, samplesMs: samples, ratio: medianMs.compiled / medianMs.tsx, ratioEverything: medianMs.compiled / medianMs.tsxEverything };
}

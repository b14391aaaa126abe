// How long `resumecheck --help` takes, wall time of a whole process: the compiled bin (bin/resumecheck.mjs running
// dist/, as installed) against the same CLI run from its TypeScript sources through tsx's loader (how bin/ ran
// before the build existed; it gains the same lazy loading, so the ratio is the compile step's share), with plain
// `node -e 0` (and an empty ES module, the bin being one) as the floor neither can go under; and, labelled, the whole library loaded through tsx. Needs dist/ built (`npm run bench` builds first).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, nowMs } from './measure.ts';

/** The checkout: bench/precompiled.mjs runs the compiled bench from elsewhere and says where it is. */
const ROOT = process.env['RESUMECHECK_ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));
const TIMEOUT_MS = 30_000;

/** The three ways timed, each a command line from the repository root. */
const WAYS = {
  node: ['-e', '0'],
  // The floor for an ES module entry (the bin is one): node's ESM loader started, nothing of ours loaded.
  nodeModule: ['--input-type=module', '-e', '0'],
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
  /** Median CPU time (user + system, all threads) per way, steadier than wall time on a loaded machine; null without /usr/bin/time. */
  readonly cpuMs: Readonly<Record<Way, number>> | null;
}

/** GNU time, which reports a child's CPU time (Node's child_process does not). */
const GNU_TIME = '/usr/bin/time';

function timeOnce(way: Way, cpuFile: string | null): { wallMs: number; cpuMs: number | null } {
  const started = nowMs();
  const child =
    cpuFile === null
      ? spawnSync(process.execPath, WAYS[way], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: TIMEOUT_MS })
      : spawnSync(GNU_TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...WAYS[way]], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: TIMEOUT_MS });
  const wallMs = nowMs() - started;
  if (child.status !== 0) throw new Error(`${WAYS[way].join(' ')} exited ${String(child.status)}: ${child.stderr.toString().split('\n')[0]}`);
  if (cpuFile === null) return { wallMs, cpuMs: null };
  const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wallMs, cpuMs: Number.isFinite(user) && Number.isFinite(system) ? (user! + system!) * 1000 : null };
}

/** Times each way `rounds` times, interleaved so a burst of load elsewhere hits every way alike (one warm-up round first). */
export function measureCliStartup(rounds: number): CliStartup {
  if (!existsSync(`${ROOT}dist/cli/run.js`)) throw new Error('dist/ is not built: run `npm run build` (npm run bench does)');
  const ways = Object.keys(WAYS) as Way[];
  const samples = Object.fromEntries(ways.map((way) => [way, [] as number[]])) as Record<Way, number[]>;
  const cpu = Object.fromEntries(ways.map((way) => [way, [] as number[]])) as Record<Way, number[]>;
  const scratch = existsSync(GNU_TIME) ? mkdtempSync(join(tmpdir(), 'resumecheck-bench-cli-')) : null;
  const cpuFile = scratch === null ? null : join(scratch, 'cpu.txt');
  let cpuKnown = cpuFile !== null;
  try {
    for (const way of ways) timeOnce(way, null);
    for (let round = 0; round < rounds; round += 1) {
      for (const way of ways) {
        const sample = timeOnce(way, cpuFile);
        samples[way].push(sample.wallMs);
        if (sample.cpuMs === null) cpuKnown = false;
        else cpu[way].push(sample.cpuMs);
      }
    }
  } finally {
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  }
  const medians = (list: Record<Way, number[]>): Record<Way, number> => Object.fromEntries(ways.map((way) => [way, median(list[way])])) as Record<Way, number>;
  const medianMs = medians(samples);
  return { rounds, medianMs, samplesMs: samples, ratio: medianMs.compiled / medianMs.tsx, ratioEverything: medianMs.compiled / medianMs.tsxEverything, cpuMs: cpuKnown ? medians(cpu) : null };
}

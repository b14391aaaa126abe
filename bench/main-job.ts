// Figure 7: the README's main job, `npx resumecheck fuzz --target sdk-shared` (default seed, 2 000 runs), as a
// whole process, this checkout against the main checkout's CLI (the baseline: what the job costs today), in the
// same bench run, each writing into a fresh temporary --out. The findings (properties violated) must be the same.
// Ours runs twice: as the README's command is (stored counterexamples in traces/corpus/ replayed first, so a
// property they still fail is reported with its file and not shrunk again), and with --no-corpus (everything
// searched and shrunk, as main does).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nowMs } from './measure.ts';

/** The checkout: bench/precompiled.mjs runs the compiled bench from elsewhere and says where it is. */
const ROOT = process.env['RESUMECHECK_ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));

/** One command's run. */
export interface JobRun {
  readonly label: string;
  readonly command: string;
  readonly wallMs: number;
  /** User + system CPU time of the process (and its threads), when /usr/bin/time can measure it: steadier under load. */
  readonly cpuMs: number | null;
  readonly exitCode: number | null;
  /** Properties the search found violated, sorted. */
  readonly properties: readonly string[];
  /** Properties of stored traces (traces/corpus/) that still fail, sorted: ours only, replayed before the search. */
  readonly regressions: readonly string[];
}

/** The figure. */
export interface MainJobResult {
  readonly baselineCheckout: string;
  readonly baselineCommit: string;
  readonly runs: readonly JobRun[];
}

function propertiesOf(stdout: string): { properties: string[]; regressions: string[] } {
  try {
    const document = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { violations?: Array<{ property: string }>; regressions?: Array<{ property: string }> };
    const sorted = (entries: Array<{ property: string }> | undefined): string[] => [...new Set((entries ?? []).map((entry) => entry.property))].sort();
    return { properties: sorted(document.violations), regressions: sorted(document.regressions) };
  } catch {
    return { properties: ['(no JSON output)'], regressions: [] };
  }
}

/** GNU time, which reports a child's CPU time (Node's child_process does not). */
const GNU_TIME = '/usr/bin/time';

/**
 * How a checkout's CLI starts: its bin when its compiled dist/ is there (the bin runs it), else the sources through
 * tsx (cli/run.ts), else the bin of a checkout from before the compiled build (which loaded the sources itself).
 */
function cliOf(checkout: string): { readonly args: readonly string[]; readonly how: string } {
  if (existsSync(join(checkout, 'dist', 'cli', 'run.js'))) return { args: [join(checkout, 'bin', 'resumecheck.mjs')], how: 'compiled dist/' };
  if (existsSync(join(checkout, 'cli', 'run.ts'))) return { args: ['--import', 'tsx', join(checkout, 'cli', 'run.ts')], how: 'sources under tsx' };
  return { args: [join(checkout, 'bin', 'resumecheck.mjs')], how: 'its bin (sources under tsx)' };
}

function runJob(label: string, cwd: string, extra: readonly string[]): JobRun {
  const out = mkdtempSync(join(tmpdir(), 'resumecheck-bench-job-'));
  const cpuFile = join(out, 'cpu.txt');
  const cli = cliOf(cwd);
  const args = [...cli.args, 'fuzz', '--target', 'sdk-shared', '--out', join(out, 'found'), ...extra, '--json'];
  const timing = existsSync(GNU_TIME);
  try {
    const started = nowMs();
    const child = timing
      ? spawnSync(GNU_TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 600_000 })
      : spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 600_000 });
    const wallMs = nowMs() - started;
    let cpuMs: number | null = null;
    if (timing && existsSync(cpuFile)) {
      const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
      if (Number.isFinite(user) && Number.isFinite(system)) cpuMs = (user! + system!) * 1000;
    }
    return { label, command: `node ${args.join(' ')}  (in ${cwd}; ${cli.how})`, wallMs, cpuMs, exitCode: child.status, ...propertiesOf(child.stdout) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Runs the main job with the baseline checkout's CLI and with ours. Null when there is no baseline checkout. */
export function measureMainJob(options: { readonly baselineCheckout: string }): MainJobResult | null {
  const baseline = options.baselineCheckout;
  if (!existsSync(join(baseline, 'bin', 'resumecheck.mjs'))) return null;
  // tsx resolves from the working directory; the checkout's own node_modules has it.
  const commit = spawnSync('git', ['-C', baseline, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
  const runs = [
    runJob('baseline (main)', baseline, []),
    runJob('ours, --no-corpus', ROOT, ['--no-corpus']),
    runJob('ours, as the README runs it', ROOT, []),
  ];
  return { baselineCheckout: baseline, baselineCommit: commit, runs };
}

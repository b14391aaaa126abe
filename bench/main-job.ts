// Figure 7: the README's main job, `npx resumecheck fuzz --target sdk-shared` (default seed, 2 000 runs), as a
// whole process, this checkout against the main checkout's CLI (the baseline: what the job costs today), in the
// same bench run, each writing into a fresh temporary --out. The findings (properties violated) must be the same.
// Ours runs twice: as the README's command is (stored counterexamples in traces/corpus/ replayed first, so a
// property they still fail is reported with its file and not shrunk again), and with --no-corpus (everything
// searched and shrunk, as main does).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nowMs } from './measure.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One command's run. */
export interface JobRun {
  readonly label: string;
  readonly command: string;
  readonly wallMs: number;
  readonly exitCode: number | null;
  /** Properties violated (new findings and, for ours, stored traces still failing), sorted. */
  readonly properties: readonly string[];
}

/** The figure. */
export interface MainJobResult {
  readonly baselineCheckout: string;
  readonly baselineCommit: string;
  readonly runs: readonly JobRun[];
}

function propertiesOf(stdout: string): string[] {
  try {
    const document = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { violations?: Array<{ property: string }>; regressions?: Array<{ property: string }> };
    return [...new Set([...(document.violations ?? []), ...(document.regressions ?? [])].map((entry) => entry.property))].sort();
  } catch {
    return ['(no JSON output)'];
  }
}

function runJob(label: string, cwd: string, bin: string, extra: readonly string[]): JobRun {
  const out = mkdtempSync(join(tmpdir(), 'resumecheck-bench-job-'));
  const args = [bin, 'fuzz', '--target', 'sdk-shared', '--out', out, ...extra, '--json'];
  try {
    const started = nowMs();
    const child = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 600_000 });
    const wallMs = nowMs() - started;
    return { label, command: `node ${args.join(' ')}  (in ${cwd})`, wallMs, exitCode: child.status, properties: propertiesOf(child.stdout) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Runs the main job with the baseline checkout's CLI and with ours. Null when there is no baseline checkout. */
export function measureMainJob(options: { readonly baselineCheckout: string }): MainJobResult | null {
  const baseline = options.baselineCheckout;
  if (!existsSync(join(baseline, 'bin', 'resumecheck.mjs'))) return null;
  const commit = spawnSync('git', ['-C', baseline, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
  const runs = [
    runJob('baseline (main)', baseline, join(baseline, 'bin', 'resumecheck.mjs'), []),
    runJob('ours, --no-corpus', ROOT, join(ROOT, 'bin', 'resumecheck.mjs'), ['--no-corpus']),
    runJob('ours, as the README runs it', ROOT, join(ROOT, 'bin', 'resumecheck.mjs'), []),
  ];
  return { baselineCheckout: baseline, baselineCommit: commit, runs };
}

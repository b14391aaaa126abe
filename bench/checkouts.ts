// Baselines at other commits, made in the same bench run: a commit's tree is extracted (`git archive`) into a fresh
// temporary directory, given this checkout's node_modules (a symlink: the same installed packages), and built as that
// commit builds itself (`npm run build` when its package.json has a build script; a commit from before the compiled
// build runs its sources through tsx, as its bin did then). Removed at the end of the run. And the whole-process
// timing every goal row uses: wall time, and CPU time (user + system, the process and every child it waited for)
// from GNU time.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nowMs } from './measure.ts';

/** This checkout: bench/precompiled.mjs runs the compiled bench from elsewhere and says where it is. */
export const ROOT = process.env['RESUMECHECK_ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));

/** A checkout whose CLI a goal row runs. */
export interface Checkout {
  /** What the report calls it: `ours`, `main`, `cb69534`. */
  readonly label: string;
  /** The commit, short. */
  readonly commit: string;
  readonly dir: string;
  /** How its CLI runs: `compiled dist/` or `sources under tsx`. */
  readonly how: string;
  /** False for this checkout (never removed). */
  readonly temporary: boolean;
}

function git(args: readonly string[], cwd = ROOT): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

function howOf(dir: string): string {
  return existsSync(join(dir, 'dist', 'cli', 'run.js')) ? 'compiled dist/' : 'sources under tsx (its bin)';
}

/** This checkout as it is (built by `npm run bench` before the bench starts). */
export function ourCheckout(): Checkout {
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  return { label: 'ours', commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? '+changes' : ''}`, dir: ROOT, how: howOf(ROOT), temporary: false };
}

/** A temporary checkout of `ref`, built as that commit builds itself. Throws when it cannot be made. */
export function prepareCheckout(ref: string, label: string, log: (line: string) => void): Checkout {
  const commit = git(['rev-parse', '--short', `${ref}^{commit}`]);
  const dir = mkdtempSync(join(tmpdir(), `resumecheck-bench-${label}-`));
  try {
    const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 1024 * 2 ** 20 });
    if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString().trim()}`);
    const extracted = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    if (extracted.status !== 0) throw new Error(`tar: ${extracted.stderr.toString().trim()}`);
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (manifest.scripts?.['build'] !== undefined) {
      log(`  building ${label} (${commit}) in ${dir}: npm run build`);
      const built = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
      if (built.status !== 0) throw new Error(`npm run build at ${commit}: ${(built.stdout + built.stderr).trim().split('\n').slice(-3).join(' / ')}`);
    }
    return { label, commit, dir, how: howOf(dir), temporary: true };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Removes a temporary checkout (never this one). */
export function removeCheckout(checkout: Checkout): void {
  if (checkout.temporary) rmSync(checkout.dir, { recursive: true, force: true });
}

/** One whole process, timed. */
export interface TimedRun {
  readonly wallMs: number;
  /** User + system CPU of the process and the children it waited for (GNU time), or null when it cannot say. */
  readonly cpuMs: number | null;
  /** Null when it was stopped at the cap (`timedOut`) or by a signal. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when it ran past its cap and was stopped: its wall time is the cap's, a lower bound. */
  readonly timedOut: boolean;
}

const GNU_TIME = '/usr/bin/time';

/**
 * Runs `command args` in `cwd` as its own process group, at most `capMs` (then the group is stopped: SIGTERM, SIGKILL
 * 5 s later). With GNU time the CPU time is counted; without it, null.
 */
export function timedRun(command: string, args: readonly string[], options: { readonly cwd: string; readonly capMs: number }): Promise<TimedRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-bench-time-'));
  const cpuFile = join(scratch, 'cpu.txt');
  const timing = existsSync(GNU_TIME);
  const [file, argv] = timing ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args]] : [command, [...args]];
  return new Promise((resolve, reject) => {
    const started = nowMs();
    const child = spawn(file, argv, { cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    let killer: NodeJS.Timeout | null = null;
    const stopGroup = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // Gone already.
      }
    };
    // The bench's own clock (bench/ may use timers): a cap, never something a run depends on.
    const cap = setTimeout(() => {
      timedOut = true;
      stopGroup('SIGTERM');
      killer = setTimeout(() => stopGroup('SIGKILL'), 5000);
    }, options.capMs);
    child.once('error', (error) => {
      clearTimeout(cap);
      rmSync(scratch, { recursive: true, force: true });
      reject(error);
    });
    child.once('close', (code) => {
      const wallMs = nowMs() - started;
      clearTimeout(cap);
      if (killer !== null) clearTimeout(killer);
      let cpuMs: number | null = null;
      if (timing && existsSync(cpuFile)) {
        const last = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1) ?? '';
        const [user, system] = last.split(' ').map(Number);
        if (Number.isFinite(user) && Number.isFinite(system)) cpuMs = (user! + system!) * 1000;
      }
      rmSync(scratch, { recursive: true, force: true });
      // GNU time exits with the command's status, or 128 + the signal that stopped it.
      resolve({ wallMs, cpuMs, exitCode: timedOut ? null : code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), timedOut });
    });
  });
}

/** The checkout's CLI as a command line: `node <dir>/bin/resumecheck.mjs`. */
export function cliArgs(checkout: Checkout, args: readonly string[]): string[] {
  return [join(checkout.dir, 'bin', 'resumecheck.mjs'), ...args];
}

/** The last line of a process's stdout parsed as JSON (a `--json` document), or null. */
export function lastJson(stdout: string): Record<string, unknown> | null {
  const line = stdout.trim().split('\n').at(-1);
  if (line === undefined || line === '') return null;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// A node process run to its end for a test: its exit status and what it printed, read to the end of both streams.

import { spawn } from 'node:child_process';

/**
 * Runs node with `args` to its end (in `cwd`, with `env` added to this process's): its exit status and what it
 * printed. No clock: vitest.config.ts's guard is the only bound (a spawnSync would block the very thread that guard
 * runs in).
 */
export function runNode(args: readonly string[], cwd?: string, env?: Readonly<Record<string, string>>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { ...(cwd === undefined ? {} : { cwd }), ...(env === undefined ? {} : { env: { ...process.env, ...env } }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // 'close', not 'exit': both streams read to their end.
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

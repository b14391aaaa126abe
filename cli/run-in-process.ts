// The CLI run in this process, its lines captured: what the command tests drive instead of spawning the bin.

import { main } from './main.ts';

/** What one in-process run of the CLI printed, and its exit code. */
export interface CapturedRun {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
}

/** Runs `resumecheck ARGS` in this process and captures its stdout and stderr lines. */
export async function runInProcess(args: string[]): Promise<CapturedRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

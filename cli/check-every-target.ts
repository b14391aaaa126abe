// Runs every target `resumecheck targets` lists through `fuzz --runs 3`, `explore --depth 2` and `matrix --runs 1`
// (the matrix's own way of opening a target), in this process, and says for each whether the command gave a verdict
// (exit 0 or 1), refused in one line (exit 2), or crashed (an exception escaped the CLI, or a stack trace was
// printed). Bounded: 3 fuzz runs, depth 2 (at most 2 000 sequences), one run per matrix cell.
//
//   npx tsx cli/check-every-target.ts [--target NAME]... [--command fuzz|explore|matrix]...
//
// Prints one line per target and command; exits 1 if anything crashed, 0 otherwise.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TARGET_ENTRIES } from '../targets/registry.ts';
import { runInProcess } from './run-in-process.ts';

/** The commands checked, each with its bounded arguments for one target. */
export const CHECKED_COMMANDS = {
  fuzz: (target: string, out: string) => ['fuzz', '--target', target, '--runs', '3', '--workers', '1', '--no-corpus', '--out', out],
  explore: (target: string, out: string) => ['explore', '--target', target, '--depth', '2', '--runs-max', '2000', '--workers', '1', '--out', out],
  matrix: (target: string) => ['matrix', '--target', target, '--runs', '1'],
} as const;

/** One command's outcome on one target. */
export interface CommandCheck {
  readonly target: string;
  readonly command: keyof typeof CHECKED_COMMANDS;
  readonly outcome: 'verdict' | 'refused' | 'crashed';
  readonly code: number | null;
  /** The verdict line, the refusal, or the crash's message. */
  readonly line: string;
}

/** Runs `command` on `target` and classifies what happened. */
export async function checkCommand(target: string, command: keyof typeof CHECKED_COMMANDS, out: string): Promise<CommandCheck> {
  try {
    const result = await runInProcess([...CHECKED_COMMANDS[command](target, out)]);
    const printed = [...result.out, ...result.err];
    if (printed.some((line) => /\n\s+at |^\s+at .*:\d+:\d+\)?$/.test(line))) return { target, command, outcome: 'crashed', code: result.code, line: 'a stack trace was printed' };
    if (result.code === 2) return { target, command, outcome: 'refused', code: 2, line: result.err.join(' | ') };
    if (result.code !== 0 && result.code !== 1) return { target, command, outcome: 'crashed', code: result.code, line: `exit ${result.code}` };
    // The matrix prints a line per cell: the count of each kind of cell stands for its verdict.
    const cells = result.out.filter((line) => /^ {2}\S+ +(holds|violated|n\/a)/.test(line));
    const tally = ['holds', 'violated', 'n/a'].map((kind) => `${cells.filter((line) => new RegExp(`^ {2}\\S+ +${kind.replace('/', '\\/')}`).test(line)).length} ${kind}`).join(', ');
    const verdict = command === 'matrix' ? `cells: ${tally}` : (result.out.find((line) => /^(✓|✗|\?|shortest counterexample|\d+ propert|no violation)/.test(line)) ?? result.out.at(-1) ?? '');
    return { target, command, outcome: 'verdict', code: result.code, line: verdict };
  } catch (error) {
    return { target, command, outcome: 'crashed', code: null, line: error instanceof Error ? error.message : String(error) };
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { target: { type: 'string', multiple: true }, command: { type: 'string', multiple: true } } });
  const targets = values.target ?? TARGET_ENTRIES.map((entry) => entry.name);
  const commands = (values.command ?? Object.keys(CHECKED_COMMANDS)) as (keyof typeof CHECKED_COMMANDS)[];
  const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-every-target-'));
  let crashed = 0;
  try {
    for (const target of targets) {
      for (const command of commands) {
        const check = await checkCommand(target, command, join(scratch, `${command}-${target}`));
        if (check.outcome === 'crashed') crashed += 1;
        console.log(`${check.outcome.padEnd(8)} ${command.padEnd(7)} ${target}: exit ${check.code ?? '-'}: ${check.line.slice(0, 200)}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(crashed === 0 ? 'no target crashed any command' : `${crashed} crashes`);
  return crashed === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();

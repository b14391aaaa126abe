// Where a command will write, checked before it runs: a run of minutes must not end in a stack trace because `--out`
// names a file, is empty, or cannot be written. Nothing is created here (a run that finds nothing leaves no folder).

import { type Stats, accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './usage-error.ts';

/** Where found traces go unless --out says otherwise. */
export const DEFAULT_OUT = 'traces/found';

/** Folders walked up at most to find the nearest existing one (a path is far shorter than this). */
const DEPTH_MAX = 4096;

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    // ENOTDIR: a folder of the path is a file; the walk up finds it and says so.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unknown error';
}

/** Checks that `path` is, or can be made as, a writable directory; throws a UsageError naming `flag` otherwise. */
export function checkOutDir(path: string, flag: string): void {
  if (path.trim() === '') throw new UsageError(`${flag} takes a directory, got an empty path`);
  const absolute = resolve(path);
  let existing = absolute;
  let stats: Stats | null = null;
  try {
    for (let depth = 0; depth < DEPTH_MAX; depth += 1) {
      stats = statOrNull(existing);
      if (stats !== null || dirname(existing) === existing) break;
      existing = dirname(existing);
    }
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot be checked (${code(error)})`);
  }
  if (stats === null) throw new UsageError(`${flag} ${path}: no folder of it exists`);
  if (!stats.isDirectory()) {
    throw new UsageError(existing === absolute ? `${flag} ${path}: is a file, not a directory` : `${flag} ${path}: ${existing} is a file, so the directory cannot be made`);
  }
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: ${existing === absolute ? 'the directory' : `${existing}, where it would be made,`} is not writable (${code(error)})`);
  }
}

/** Checks that `path` can be written as a file (its folder exists or can be made, and it is not a directory). */
export function checkOutFile(path: string, flag: string): void {
  if (path.trim() === '') throw new UsageError(`${flag} takes a file, got an empty path`);
  let stats: Stats | null;
  try {
    stats = statOrNull(resolve(path));
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot be checked (${code(error)})`);
  }
  if (stats?.isDirectory() === true) throw new UsageError(`${flag} ${path}: is a directory, not a file`);
  checkOutDir(dirname(resolve(path)), flag);
}

/**
 * Checks that no two of a command's output files are one file: `--summary s.json --junit s.json` would keep only
 * the last written. Each entry is a flag and its path, or undefined when the flag was not given.
 */
export function checkDistinctOutputs(outputs: readonly (readonly [flag: string, path: string | undefined])[]): void {
  const seen = new Map<string, string>();
  for (const [flag, path] of outputs) {
    if (path === undefined) continue;
    const key = resolve(path);
    const first = seen.get(key);
    if (first !== undefined) throw new UsageError(`${first} and ${flag} both name ${path}: give each output a file of its own`);
    seen.set(key, flag);
  }
}

/**
 * Checks a directory of stored traces named on the command line: it must exist and be a directory (a missing default
 * corpus is no error, so this is only for one the user named).
 */
export function checkTraceDir(path: string, flag: string): void {
  let stats: Stats | null;
  try {
    stats = statOrNull(resolve(path));
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot be checked (${code(error)})`);
  }
  if (stats === null) throw new UsageError(`${flag} ${path}: no such directory`);
  if (!stats.isDirectory()) throw new UsageError(`${flag} ${path}: is a file; it takes a directory of trace files`);
}

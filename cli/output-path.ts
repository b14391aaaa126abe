// Checking a file path a command will write to (--summary, --junit) before the command starts, so a bad path is
// one line and exit 2 up front rather than a lost result after a long run.

import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './usage-error.ts';

/** Throws UsageError unless `path` names a file that can be created or replaced in an existing, writable directory. */
export function checkOutputFile(path: string, flag: string): void {
  if (path.trim() === '') throw new UsageError(`${flag} takes a file path, got ""`);
  const absolute = resolve(path);
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`${flag} ${path}: cannot use it (${(error as NodeJS.ErrnoException).code ?? 'unusable'})`);
  }
  if (existing?.isDirectory() === true) throw new UsageError(`${flag} ${path}: is a directory, not a file`);
  const directory = dirname(absolute);
  let parent: ReturnType<typeof statSync>;
  try {
    parent = statSync(directory);
  } catch {
    throw new UsageError(`${flag} ${path}: the directory ${directory} does not exist`);
  }
  if (!parent.isDirectory()) throw new UsageError(`${flag} ${path}: ${directory} is not a directory`);
  try {
    accessSync(directory, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: the directory ${directory} is not writable`);
  }
}

// Writing traces: atomically (a temporary file, then a rename), named by content hash, never overwriting.

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Trace, TraceFormatError, parseTrace, serializeTrace, traceFileName } from './trace.ts';

/** Writes `trace` into `directory`; returns its path. An equal trace already there is left as it is. */
export function writeTrace(directory: string, trace: Trace): { path: string; created: boolean } {
  mkdirSync(directory, { recursive: true });
  const path = join(directory, traceFileName(trace));
  if (existsSync(path)) return { path, created: false };
  writeFileAtomically(path, serializeTrace(trace));
  return { path, created: true };
}

/**
 * The one atomic writer: writes `data` to `path` through a temporary file beside it and a rename, so a reader (or an
 * interrupted run) sees the whole file or none; makes the file's folder; a failed write (a full disk) removes its
 * temporary file before it throws. Every file resumecheck, its bench and its page generators write goes through it.
 */
export function writeFileAtomically(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { flag: 'w' });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Reads and checks a trace file. Throws TraceFormatError (bad input) with one line. */
export function readTrace(path: string): Trace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new TraceFormatError(`${path}: cannot read the file (${code})`);
  }
  return parseTrace(text, path);
}


// Finding every process a served command started, including those that left its process group (a `setsid` daemon,
// a double fork): each served command gets an environment variable with a value unique to it, which its descendants
// inherit, and on Linux /proc/PID/environ says which processes carry it. No cgroup and no privilege is needed.
//
// What this cannot reach: a descendant that cleared or rewrote its environment (`env -i`, an `execve` with a new
// environment), a process of another user (its environ is unreadable), and anything at all where /proc is absent
// (macOS, Windows: there the process group is all that is stopped).

import { readFileSync, readdirSync } from 'node:fs';

/** The environment variable that marks a served command and everything it starts. */
export const SERVE_MARK_VARIABLE = 'RESUMECHECK_SERVE_MARK';

/** Whether this system lets processes be found by their environment (Linux's /proc). */
export function canFindMarkedProcesses(): boolean {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
}

/** The IDs of live processes whose environment holds `SERVE_MARK_VARIABLE=mark`, this process excluded. */
export function markedProcesses(mark: string): number[] {
  const needle = Buffer.from(`${SERVE_MARK_VARIABLE}=${mark}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      // Gone meanwhile, or another user's: nothing to do with it.
      continue;
    }
    // The variable is whole only at the start or right after a separator.
    const at = environ.indexOf(needle);
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) found.push(pid);
  }
  return found;
}

/** Sends `signal` to every live process marked `mark`; returns how many it was sent to. */
export function signalMarkedProcesses(mark: string, signal: NodeJS.Signals): number {
  let sent = 0;
  for (const pid of markedProcesses(mark)) {
    try {
      process.kill(pid, signal);
      sent += 1;
    } catch {
      // It exited between the scan and the signal.
    }
  }
  return sent;
}

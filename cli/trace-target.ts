// A trace is data, never a command: a trace's target may name a shell command (`serve:CMD`, found with --serve) or a
// module to import (`module:PATH`, from check-store; a contract trace's store), and a trace is what people attach to
// bug reports and download from CI. replay, shrink and check-store --replay run what a trace names only when the user
// names it too, or opts in and is told first.

import { type TraceExecution, traceExecution } from '../traces/trace-execution.ts';
import type { Io } from './command-spec.ts';
import { UsageError } from './usage-error.ts';

export { traceExecution } from '../traces/trace-execution.ts';

/** The flag that lets replay, shrink and check-store --replay run the command or module a trace names, printed before it runs. */
export const ALLOW_TRACE_COMMAND_FLAG = '--allow-trace-command';

/** The words for what a trace would execute, e.g. `start the shell command "node x.mjs"`. */
export function describeExecution(execution: TraceExecution): string {
  return execution.kind === 'command' ? `start the shell command ${JSON.stringify(execution.what)}` : `import the module ${JSON.stringify(execution.what)}`;
}

/**
 * Checks that the target a trace names may be run. A name that executes nothing passes; one that does passes only
 * with the opt-in, after a line on stderr says what will run; otherwise a UsageError (exit 2) says what the trace
 * would run and how to allow it.
 */
export function checkTraceTarget(file: string, name: string, options: { readonly allowed: boolean; readonly io: Io }): void {
  const execution = traceExecution(name);
  if (execution === null) return;
  checkTraceExecution(file, execution, { ...options, named: `its target ${JSON.stringify(name)}`, names: 'its target' });
}

/**
 * Checks that what a trace names, `execution`, may be run: only with the opt-in, after a line on stderr says what will
 * run; otherwise a UsageError (exit 2) says what the trace would run and how to allow it. `named` says where in the
 * trace it is named (`its target "serve:…"`), `names` what the trace names (`its target`, `its store`).
 */
export function checkTraceExecution(file: string, execution: TraceExecution, options: { readonly allowed: boolean; readonly io: Io; readonly named: string; readonly names: string }): void {
  if (!options.allowed) {
    throw new UsageError(
      `${file} would ${describeExecution(execution)} (${options.named}); a trace is data, so it is not run: ` +
        `give ${execution.flag} to run it, or ${ALLOW_TRACE_COMMAND_FLAG}`,
    );
  }
  options.io.err(`resumecheck: ${ALLOW_TRACE_COMMAND_FLAG}: ${file} names ${options.names}; about to ${describeExecution(execution)}`);
}

// How a violation of the simulator's properties is printed by fuzz, script and replay: the property, what it demands,
// what happened, the shrunk steps, and the command that replays the written trace.

import { quoteArgument, readableFromTrace } from '../traces/render/readable.ts';
import { renderText } from '../traces/render/text.ts';
import type { Trace } from '../traces/trace.ts';
import type { Io } from './command-spec.ts';

/** An argument as a shell would need it written. */
export function quote(argument: string): string {
  return quoteArgument(argument);
}

/** Prints a trace's violation; `path` is where the trace was written, or null when it was not (the one text renderer). */
export function printViolation(io: Io, trace: Trace, path: string | null): void {
  for (const line of renderText(readableFromTrace(trace, path ?? ''), { written: path, replay: path !== null })) io.out(line);
}

/** Prints a stored counterexample read from `path` (nothing written now), with the command that replays it. */
export function printStoredViolation(io: Io, trace: Trace, path: string): void {
  for (const line of renderText(readableFromTrace(trace, path), { written: null, replay: true })) io.out(line);
}

/** The line that says which component of an assembled target a finding is charged to (sim/shrink/attribution.ts), or why none. */
export function chargedLine(charged: readonly string[], component: string, evidence: string): string {
  return charged.length === 0 ? `  not charged to a component — ${evidence}` : `  charged to ${component} — ${evidence}`;
}

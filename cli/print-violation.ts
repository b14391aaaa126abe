// How a violation of the simulator's properties is printed by fuzz, script and replay: the property, what it demands,
// what happened, the shrunk steps, and the command that replays the written trace.

import { PROPERTIES } from '../properties/index.ts';
import { type Trace, renderSteps } from '../traces/trace.ts';
import type { Io } from './command-spec.ts';

/** An argument as a shell would need it written. */
export function quote(argument: string): string {
  return /^[\w./:@=-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

/** Prints a trace's violation; `path` is where the trace was written, or null when it was not. */
export function printViolation(io: Io, trace: Trace, path: string | null): void {
  const verdict = trace.verdict!;
  const property = PROPERTIES.find((candidate) => candidate.name === verdict.property)!;
  io.out(`✗ ${verdict.property} violated by ${trace.target} (${property.kind})`);
  io.out(`  must hold: ${property.statement}`);
  io.out(`  happened:  ${verdict.explanation}`);
  io.out('');
  for (const line of renderSteps(trace.steps)) io.out(line);
  io.out('');
  if (path !== null) {
    io.out(`trace written: ${path}`);
    io.out(`replay it:     npx resumecheck replay ${quote(path)}`);
  }
}

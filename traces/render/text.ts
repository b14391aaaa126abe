// A trace as numbered text for a terminal: what fuzz, replay, script, shrink and render print, from one function.

import type { ReadableStep, ReadableTrace } from './readable.ts';

/** A step as the engines record it: an action, its notes, and (for the simulator) its phase. */
export interface StepLike {
  readonly action: string;
  readonly phase?: ReadableStep['phase'] | undefined;
  readonly notes: readonly string[];
}

/** A trace's steps as numbered lines for a person. */
export function renderStepLines(steps: readonly StepLike[]): string[] {
  const lines: string[] = [];
  steps.forEach((step, index) => {
    const phase = step.phase === 'liveness' ? '   (liveness phase: faults stopped)' : '';
    lines.push(`${String(index + 1).padStart(3)}. ${step.action}${phase}`);
    for (const note of step.notes) lines.push(`       ${note}`);
  });
  return lines;
}

/** Where the trace was written and how to replay it, when the caller printing it knows. */
export interface TextOptions {
  /** The file just written (printed as `trace written:`), or null. */
  readonly written?: string | null;
  /** Print the replay command (the trace's own, from the path it was read from or written to); default false. */
  readonly replay?: boolean;
}

/** A violated (or holding) trace as the lines a terminal shows: the verdict, the property, the steps, the replay. */
export function renderText(trace: ReadableTrace, options: TextOptions = {}): string[] {
  const lines: string[] = [];
  const verdict = trace.verdict;
  if (verdict === null) lines.push(`✓ no violation on ${trace.target} (${trace.steps.length} steps)`);
  else {
    lines.push(
      verdict.note === true
        ? `ⓘ ${verdict.property} noted on ${trace.target} (a note: permitted by its protocol revision, not a failure)`
        : `✗ ${verdict.property} violated by ${trace.target} (${verdict.kind})`,
    );
    lines.push(`  must hold: ${verdict.statement}`);
    lines.push(`  happened:  ${verdict.explanation}`);
  }
  lines.push('');
  lines.push(...renderStepLines(trace.steps));
  lines.push('');
  if (options.written !== undefined && options.written !== null) lines.push(`trace written: ${options.written}`);
  if (options.replay === true) lines.push(`replay it:     ${trace.replay}`);
  return lines;
}

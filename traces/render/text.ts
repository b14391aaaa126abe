// A trace as numbered text for a terminal: what fuzz, replay, script, shrink and render print, from one function.

import { SEVERITY_LABELS, notFailingReason } from '../../properties/severity.ts';
import type { ReadableStep, ReadableTrace, ReadableVerdict } from './readable.ts';

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

/**
 * The first line of a verdict, with its severity's label (properties/severity.ts): a failure as `✗ P violated by T`,
 * a warning or advice saying which flag makes it fail, a note, and a finding a client's fault triggered.
 */
export function verdictHeadline(target: string, verdict: ReadableVerdict): string {
  if (verdict.note === true) return `${SEVERITY_LABELS.note.slice(0, 1)} ${verdict.property} noted on ${target} (a note: permitted by its protocol revision, not a failure)`;
  if (verdict.triggeredBy !== undefined) return `${SEVERITY_LABELS.advice.slice(0, 1)} ${verdict.property} triggered on ${target} by the client's own fault (${verdict.kind}; charged to the client: fails nothing)`;
  const severity = verdict.severity ?? 'failure';
  const weight = severity === 'failure' || severity === 'note' ? '' : `; ${notFailingReason(severity, 'failure')}`;
  return `${SEVERITY_LABELS[severity].slice(0, 1)} ${verdict.property} violated by ${target} (${verdict.kind}${weight})`;
}

/** What a verdict's `unchecked` says, as text and HTML show it: the properties, and why the run left them out. */
export function uncheckedText(unchecked: readonly string[]): string {
  const why = unchecked.length === 1 ? 'the run violated it first; it was made again without it' : 'the run violated them first; it was made again without them';
  return `${unchecked.join(', ')} (${why})`;
}

/** A violated (or holding) trace as the lines a terminal shows: the verdict, the property, the steps, the replay. */
export function renderText(trace: ReadableTrace, options: TextOptions = {}): string[] {
  const lines: string[] = [];
  const verdict = trace.verdict;
  if (verdict === null) lines.push(`✓ no violation on ${trace.target} (${trace.steps.length} steps)`);
  else {
    lines.push(verdictHeadline(trace.target, verdict));
    lines.push(`  must hold: ${verdict.statement}`);
    // A finding a client's fault triggered says first what the client broke, then what the server did.
    lines.push(verdict.triggeredBy === undefined ? `  happened:  ${verdict.explanation}` : `  happened:  ${verdict.triggeredBy}; the server then: ${verdict.explanation}`);
    if (verdict.signature !== undefined) lines.push(`  how:       ${verdict.signature}`);
    if (verdict.unchecked !== undefined) lines.push(`  unchecked: ${uncheckedText(verdict.unchecked)}`);
  }
  lines.push('');
  lines.push(...renderStepLines(trace.steps));
  lines.push('');
  if (options.written !== undefined && options.written !== null) lines.push(`trace written: ${options.written}`);
  if (options.replay === true) lines.push(`replay it:     ${trace.replay}`);
  return lines;
}

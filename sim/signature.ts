// A finding's signature: what tells one mechanism by which a property fails from another, derived from the run
// itself. It names the violating step's action kind (or `settled`, for what the final checks find), the answer that
// broke the rule (a status code, the kind of frame, a message, the end of a stream, an execution), and the property's own word
// for the mechanism where its hook gives one. A fuzz keeps a counterexample per signature, and a shrink keeps it.

import type { Verdict } from '../properties/property.ts';
import type { Frame } from '../targets/target.ts';
import { ACTION_KINDS } from './config.ts';
import type { Arrival, SimConnection } from './world.ts';

/**
 * What a hook saw when it judged, as it has it (no object is made for it unless a violation is seen): a response
 * head's connection (its status), a frame, a message's arrival, or a word for the other hooks.
 */
export type Answer = SimConnection | Frame | Arrival | 'event id' | 'end of stream' | 'connection closed' | 'execution' | 'tool step' | 'after the step' | 'settled';

/** The kind of message a frame carries, as a signature names it. */
function frameWord(frame: Frame): string {
  const data = frame.data as Record<string, unknown> | null;
  if (frame.event === 'reset') return 'reset event';
  if (data === null) return 'priming event';
  if ('method' in data) return 'id' in data ? 'request frame' : 'notification frame';
  return 'response frame';
}

function answerWord(answer: Answer): string {
  if (typeof answer === 'string') return answer;
  // A message of the simulator's tools, whichever: a result and a notification delivered where they do not belong are
  // one mechanism (the step that put the connection there tells them apart).
  if ('provenance' in answer) return 'message';
  if ('purpose' in answer) return `status ${answer.status}`;
  return frameWord(answer);
}

/** The explanation a verdict gives. */
export function explanationOf(verdict: NonNullable<Verdict>): string {
  return typeof verdict === 'string' ? verdict : verdict.explanation;
}

/**
 * The signature of a violation seen while a step of action kind `acting` was under way (-1: the final checks; -2:
 * before the first step), by `answer`, with the mechanism the property's verdict names, if any. An answer on a
 * connection is named by the step that opened that connection (a message delivered where it does not belong is the
 * doing of the step that put the connection there, whichever later step delivered it).
 */
export function signatureOf(acting: number, answer: Answer, verdict: NonNullable<Verdict>, opening: SimConnection | null = null): string {
  const kind = opening === null ? acting : opening.openedBy;
  const step = kind === -1 ? 'settled' : kind < 0 ? 'start' : (ACTION_KINDS[kind] ?? `action ${kind}`);
  const parts = [step, answerWord(answer)];
  if (typeof verdict !== 'string') parts.push(verdict.mechanism);
  // The final checks' answer is the settling itself: said once.
  return (step === 'settled' && parts[1] === 'settled' ? [step, ...parts.slice(2)] : parts).join(' / ');
}

/** What tells findings apart: a property and a signature. Two findings with the same key are one to a fuzz. */
export function findingKey(violation: { readonly property: string; readonly signature?: string | undefined }): string {
  return `${violation.property} | ${violation.signature ?? ''}`;
}

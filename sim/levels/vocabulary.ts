// Each level's vocabulary, by the level name a trace records (none: the server level), and a recorded step read as
// the lines a person sees. The one place records become text for traces, scripts and the shrinker.

import type { LevelName } from './level.ts';
import { type TraceStep, type Vocabulary, recordText } from './records.ts';
import { CLIENT_VOCABULARY } from './client-records.ts';
import { SERVER_VOCABULARY } from './server-records.ts';
import { STORE_VOCABULARY } from './store-records.ts';

const VOCABULARIES: Readonly<Record<LevelName, Vocabulary>> = { client: CLIENT_VOCABULARY, store: STORE_VOCABULARY };

/** The vocabulary of a level (undefined or null: the server level). */
export function vocabularyOf(level: LevelName | null | undefined): Vocabulary {
  return level === undefined || level === null ? SERVER_VOCABULARY : VOCABULARIES[level];
}

/** A recorded step as lines: its action's and each observation's, through the level's vocabulary. */
export interface StepLines {
  readonly action: string;
  readonly phase: TraceStep['phase'];
  readonly notes: readonly string[];
}

/** Reads a recorded step of a level as its lines. */
export function stepLines(step: TraceStep, level: LevelName | null | undefined = null): StepLines {
  const vocabulary = vocabularyOf(level);
  return { action: recordText(vocabulary, step.action), phase: step.phase, notes: step.observations.map((record) => recordText(vocabulary, record)) };
}

/** The fault-phase actions of recorded steps, as lines (what scripts and the shrinker match enabled actions against). */
export function faultActions(steps: readonly TraceStep[] | null, level: LevelName | null | undefined = null): string[] {
  const vocabulary = vocabularyOf(level);
  return (steps ?? []).filter((step) => step.phase === 'faults').map((step) => recordText(vocabulary, step.action));
}

/** Every step of a recorded run as lines (null: a run not recorded, no steps). */
export function traceLines(steps: readonly TraceStep[] | null, level: LevelName | null | undefined = null): StepLines[] {
  return (steps ?? []).map((step) => stepLines(step, level));
}

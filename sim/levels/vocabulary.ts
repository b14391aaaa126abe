// Each level's vocabulary, by the level name a trace records (none: the server level), and a recorded step read as
// the lines a person sees. The one place records become text for traces, scripts and the shrinker.

import type { LevelName } from './level.ts';
import { type StepRecord, type TraceStep, type Vocabulary, recordText } from './records.ts';
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

/**
 * Record fields that number an entity in the order the run made it (a connection from #0, a call from c1, an
 * execution from 1), with the prefix a value carries before its number.
 */
const NUMBERED_FIELDS: readonly (readonly [field: string, prefix: string])[] = [
  ['connection', ''],
  ['call', 'c'],
  ['execution', ''],
];

/** A numbered field's value as its number (null: not one of the form). */
function numberOf(value: unknown, prefix: string): number | null {
  if (prefix === '') return typeof value === 'number' && Number.isInteger(value) ? value : null;
  return typeof value === 'string' && value.startsWith(prefix) && /^\d+$/.test(value.slice(prefix.length)) ? Number(value.slice(prefix.length)) : null;
}

/**
 * The fault-phase actions of recorded steps with `count` of them deleted from `from`, as lines. An entity a deleted
 * step made (a connection it opened, a call it started, an execution it began: first named there) is gone from a run
 * without it, and every one made after it is numbered one lower: a later step's line names its entities so, and keeps
 * its meaning. (Anything else a deletion shifts, a request ID, is left to the matching of nearest numbers.)
 */
export function faultActionsWithout(steps: readonly TraceStep[] | null, level: LevelName | null | undefined, from: number, count: number): string[] {
  const vocabulary = vocabularyOf(level);
  const faults = (steps ?? []).filter((step) => step.phase === 'faults');
  // Per numbered field, the numbers first named by a deleted step (a step after them makes nothing they named).
  const gone = NUMBERED_FIELDS.map(([field, prefix]) => {
    const seen = new Set<number>();
    const deleted: number[] = [];
    faults.slice(0, from + count).forEach((step, index) => {
      for (const record of [step.action, ...step.observations]) {
        const value = numberOf(record[field], prefix);
        if (value === null || seen.has(value)) continue;
        seen.add(value);
        if (index >= from) deleted.push(value);
      }
    });
    return deleted;
  });
  const renumbered = (record: StepRecord): StepRecord => {
    let copy: Record<string, unknown> | null = null;
    NUMBERED_FIELDS.forEach(([field, prefix], at) => {
      const value = numberOf(record[field], prefix);
      const deleted = gone[at]!;
      if (value === null || deleted.length === 0 || deleted.includes(value)) return;
      const lower = deleted.filter((number) => number < value).length;
      if (lower === 0) return;
      copy ??= { ...record };
      copy[field] = prefix === '' ? value - lower : `${prefix}${value - lower}`;
    });
    return (copy ?? record) as StepRecord;
  };
  return faults.flatMap((step, index) => (index >= from && index < from + count ? [] : [recordText(vocabulary, index < from ? step.action : renumbered(step.action))]));
}

/** Every step of a recorded run as lines (null: a run not recorded, no steps). */
export function traceLines(steps: readonly TraceStep[] | null, level: LevelName | null | undefined = null): StepLines[] {
  return (steps ?? []).map((step) => stepLines(step, level));
}

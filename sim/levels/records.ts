// What a recorded step holds: its action and what it observed, as data. Each level (the server level, the client
// level, the store level) has a vocabulary of record kinds and says how each reads as a line of text
// (sim/levels/vocabulary.ts); the renderers lay records out by their fields and print them through the vocabulary, so
// no renderer reads English back. This file is part of the level contract: it imports nothing.

/** A value a record holds: JSON data. */
export type RecordValue = string | number | boolean | null | readonly RecordValue[];

/**
 * One action or one observation, as data: a kind from its level's vocabulary and its arguments. Fields with these
 * names name what the renderers lay out and tag, the same way in every level:
 * - `client`: a client as a person counts them, from 1;
 * - `connection`: a connection's index (`#0` is the first);
 * - `call`: a call's name (`c1`); `session`: a session's ID as its server minted it (or the store level's label);
 * - `stream`, `replay`, `node`: a stream's name, a replay's number, a node as a person counts them, from 1.
 */
export interface StepRecord {
  readonly kind: string;
  readonly [field: string]: RecordValue | undefined;
}

/** One step of a recorded run. */
export interface TraceStep {
  /** The choice as recorded: an index into the enabled actions. */
  readonly choice: number;
  /** The liveness phase's steps are made by the simulator, not by choices. */
  readonly phase: 'faults' | 'liveness';
  /** What was done. */
  readonly action: StepRecord;
  /** What it caused, in the order it happened: requests, answers, frames, executions, store calls. */
  readonly observations: readonly StepRecord[];
}

/** The kind of a record kept as text: a step of a trace written before steps were records, shown as it was printed. */
export const TEXT_RECORD = 'text';

/** A line of text as a record (a trace of format version 1: its steps were recorded as printed lines). */
export function textRecord(text: string): StepRecord {
  return { kind: TEXT_RECORD, text };
}

/** A level's vocabulary: how each of its records reads as one line. */
export interface Vocabulary {
  text(record: StepRecord): string;
}

/**
 * A level's vocabulary from its two readers: its observations' (null for a kind that is not an observation) and its
 * actions'.
 */
export function levelVocabulary(observation: (record: StepRecord) => string | null, action: (record: StepRecord) => string): Vocabulary {
  return { text: (record) => observation(record) ?? action(record) };
}

/** A record's line: a text record as it was kept, any other through its level's vocabulary. */
export function recordText(vocabulary: Vocabulary, record: StepRecord): string {
  return record.kind === TEXT_RECORD ? String(record['text']) : vocabulary.text(record);
}

/** The record fields that name entities, and the tag prefix each gives (`session:s1`, `call:c2`, `connection:4`). */
export const ENTITY_FIELDS: readonly (readonly [field: string, tag: string])[] = [
  ['client', 'client'],
  ['session', 'session'],
  ['call', 'call'],
  ['connection', 'connection'],
  ['stream', 'stream'],
  ['replay', 'replay'],
  ['node', 'node'],
];

/** The entities a record names, as tags: from its entity fields (sim/levels/records.ts ENTITY_FIELDS), nothing else. */
export function recordTags(record: StepRecord): string[] {
  const tags: string[] = [];
  for (const [field, tag] of ENTITY_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number') tags.push(`${tag}:${value}`);
  }
  return tags;
}

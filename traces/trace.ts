// The trace format: versioned JSON with everything a run is a function of (target, level, config, choices) and the
// decoded readable steps and verdict, for every level. Choices are the record; fast-check's seed and path are never
// needed. check-store's older contract traces are read as the store-level traces they are (contract-trace.ts).

import { createHash } from 'node:crypto';
import { type PropertyName, isPropertyName } from '../properties/names.ts';
import type { SimConfig } from '../sim/config.ts';
import { CONFIG_BOUNDS, ConfigError, resolveConfig } from '../sim/config.ts';
import { type StepRecord, type TraceStep, textRecord } from '../sim/levels/records.ts';
import { stepLines } from '../sim/levels/vocabulary.ts';
import { LEVEL_NAMES, type LevelName } from '../sim/levels/level.ts';
import type { Violation } from '../sim/world.ts';
import { CONTRACT_TRACE_FORMAT, contractTraceAsTrace } from './contract-trace.ts';
import { renderStepLines } from './render/text.ts';

/**
 * The version of the trace format this build writes. Version 2 records each step's action and observations as records
 * (sim/levels/records.ts); version 1 recorded them as printed lines, and is still read: each line becomes a text
 * record, shown as it was printed (`resumecheck migrate-traces` rewrites such a trace by replaying it).
 */
export const TRACE_FORMAT_VERSION = 2;
/** The versions this build reads. */
export const TRACE_FORMAT_VERSIONS_READ: readonly number[] = [1, 2];
/** The version of resumecheck, recorded in every trace. */
export const RESUMECHECK_VERSION = '0.1.0';

/** A stored run. */
export interface Trace {
  readonly format: 'resumecheck-trace';
  readonly formatVersion: number;
  readonly resumecheckVersion: string;
  /** The level the run was made at (sim/levels/); absent for the server level, the engine's first. */
  readonly level?: LevelName;
  /**
   * The SDK the target ran, as installed when the trace was recorded (`@modelcontextprotocol/sdk@1.32.2`,
   * `@modelcontextprotocol/server@2.4.0`); null for targets without an SDK and for traces written before this field.
   */
  readonly sdk: string | null;
  readonly target: string;
  readonly config: SimConfig;
  /** The properties the run checked; null for all. */
  readonly properties: readonly PropertyName[] | null;
  /**
   * The properties the search checked and this run did not: the run violated them first and was made again without
   * them (sim/search/fuzz-search.ts, eachViolation). Absent when it checked all the search did.
   */
  readonly unchecked?: readonly PropertyName[];
  /** The seed of the random walk that found it (informational: the choices are the record). */
  readonly seed: string;
  readonly choices: readonly number[];
  readonly steps: readonly TraceStep[];
  readonly verdict: Violation | null;
  /** Lengths before and after shrinking, when the trace was shrunk. */
  readonly shrink: { readonly originalLength: number; readonly shrunkLength: number; readonly evaluations: number } | null;
}

/** A trace file that cannot be used: bad input, reported as one line. */
export class TraceFormatError extends Error {
  override readonly name = 'TraceFormatError';
}

/** The canonical text of a trace: stable key order, two-space indent, final newline. */
export function serializeTrace(trace: Trace): string {
  return `${JSON.stringify(trace, null, 2)}\n`;
}

/** The most characters of a target's name kept in a trace's file name (a `--serve` command may be any length). */
export const TRACE_FILE_TARGET_CHARS_MAX = 60;

/**
 * The file name of a trace: target, property, and a hash of its content, so equal traces share a name. A target name
 * may hold a path (`module:dir/store.ts`) or a whole shell command (`serve:CMD`): characters unsafe in a file name
 * become `_`, and the name is cut to {@link TRACE_FILE_TARGET_CHARS_MAX} characters, so the file name never grows with
 * it (the content hash, which covers the whole target name, keeps two cut names apart).
 */
export function traceFileName(trace: Trace): string {
  const hash = createHash('sha256').update(serializeTrace(trace)).digest('hex').slice(0, 16);
  const target = trace.target.replace(/[^A-Za-z0-9._+-]+/g, '_').slice(0, TRACE_FILE_TARGET_CHARS_MAX);
  return `${target}--${trace.verdict?.property ?? 'holds'}--${hash}.json`;
}

function fail(message: string): never {
  throw new TraceFormatError(message);
}

/** Parses and checks a trace file's text. Throws {@link TraceFormatError} with one line on anything off. */
export function parseTrace(text: string, source: string): Trace {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    fail(`${source}: not JSON`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(`${source}: not a trace object`);
  // A contract trace of check-store from before the store level is read as the store-level trace it is.
  const record = (data as Record<string, unknown>)['format'] === CONTRACT_TRACE_FORMAT ? contractTraceAsTrace(data as Record<string, unknown>, source, fail) : (data as Record<string, unknown>);
  if (record['format'] !== 'resumecheck-trace') fail(`${source}: not a resumecheck trace (format field)`);
  const version = record['formatVersion'];
  if (typeof version !== 'number' || !TRACE_FORMAT_VERSIONS_READ.includes(version)) {
    fail(`${source}: trace format version ${String(version)}, this resumecheck reads ${TRACE_FORMAT_VERSIONS_READ.join(' and ')}`);
  }
  if (typeof record['target'] !== 'string' || record['target'] === '') fail(`${source}: target must be a non-empty string`);
  const level = record['level'];
  if (level !== undefined && !(LEVEL_NAMES as readonly unknown[]).includes(level)) fail(`${source}: level must be absent (the server level) or one of ${LEVEL_NAMES.join(', ')}`);
  const choices = record['choices'];
  if (!Array.isArray(choices) || choices.length > CONFIG_BOUNDS.stepsMax[1] || !choices.every((choice) => Number.isInteger(choice) && choice >= 0 && choice < 1_000_000)) {
    fail(`${source}: choices must be an array of whole numbers from 0 to 999999`);
  }
  const rawConfig = record['config'];
  if (typeof rawConfig !== 'object' || rawConfig === null) fail(`${source}: config must be an object`);
  let config: SimConfig;
  try {
    config = resolveConfig(rawConfig as Partial<SimConfig>);
  } catch (error) {
    if (error instanceof ConfigError) fail(`${source}: config: ${error.message}`);
    throw error;
  }
  if (typeof config.seed !== 'string') fail(`${source}: config.seed must be a string`);
  const verdict = record['verdict'];
  if (verdict !== null) {
    const violation = verdict as Record<string, unknown>;
    if (typeof verdict !== 'object' || typeof violation['property'] !== 'string' || !isPropertyName(violation['property'])) {
      fail(`${source}: verdict must be null or name a known property`);
    }
    if (violation['signature'] !== undefined && typeof violation['signature'] !== 'string') fail(`${source}: verdict.signature must be a string when given`);
  }
  return {
    format: 'resumecheck-trace',
    formatVersion: TRACE_FORMAT_VERSION,
    resumecheckVersion: String(record['resumecheckVersion'] ?? 'unknown'),
    ...(level === undefined ? {} : { level: level as LevelName }),
    // Optional, so traces from before it still read: they did not say which SDK they ran on.
    sdk: typeof record['sdk'] === 'string' && record['sdk'] !== '' ? record['sdk'] : null,
    target: record['target'],
    config,
    properties: parseProperties(record['properties'], source),
    ...(record['unchecked'] === undefined ? {} : { unchecked: parseProperties(record['unchecked'], source) ?? [] }),
    seed: String(record['seed'] ?? config.seed),
    choices: choices as number[],
    steps: parseSteps(record['steps'], version, source),
    verdict: verdict as Violation | null,
    shrink: (record['shrink'] as Trace['shrink']) ?? null,
  };
}

function parseProperties(value: unknown, source: string): PropertyName[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && isPropertyName(name))) {
    fail(`${source}: properties must be null or a list of known property names`);
  }
  return value as PropertyName[];
}

/** Renders a level's steps as numbered lines for a person (traces/render/text.ts, the one text renderer). */
export function renderSteps(steps: readonly TraceStep[], level: LevelName | null = null): string[] {
  return renderStepLines(steps.map((step) => stepLines(step, level)));
}

function isRecord(value: unknown): value is StepRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)['kind'] === 'string';
}

/**
 * A trace's steps: version 2's records as they are (each checked to be a record), version 1's printed lines as text
 * records. Anything else is bad input, one line.
 */
function parseSteps(value: unknown, version: number, source: string): TraceStep[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${source}: steps must be an array`);
  return value.map((raw: unknown, index) => {
    const step = raw as Record<string, unknown> | null;
    if (typeof step !== 'object' || step === null) fail(`${source}: step ${index + 1} is not an object`);
    const phase = step['phase'] === 'liveness' ? 'liveness' : 'faults';
    const choice = typeof step['choice'] === 'number' ? step['choice'] : 0;
    if (version === 1) {
      const notes = Array.isArray(step['notes']) ? step['notes'] : [];
      return { choice, phase, action: textRecord(String(step['action'])), observations: notes.map((note: unknown) => textRecord(String(note))) };
    }
    const observations = step['observations'];
    if (!isRecord(step['action']) || !Array.isArray(observations) || !observations.every(isRecord)) {
      fail(`${source}: step ${index + 1} must hold an action record and a list of observation records`);
    }
    return { choice, phase, action: step['action'], observations };
  });
}

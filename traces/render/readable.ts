// Every trace kind resumecheck writes, read into one shape the renderers share: its steps as a person reads them,
// the verdict with the property's statement and source, and the command that replays it. A new kind of trace is one
// more entry in TRACE_KINDS (and, if its notes say something new, one more interpreter in diagram.ts).

import { readFileSync } from 'node:fs';
import { PROPERTIES } from '../../properties/index.ts';
import { CLIENT_PROPERTIES } from '../../properties/clients/index.ts';
import { describeClientFault } from '../../properties/client-fault.ts';
import type { Severity } from '../../properties/severity.ts';
import { renderSource } from '../../properties/source.ts';
import { STORE_PROPERTIES } from '../../properties/stores/index.ts';
import { CONTRACT_TRACE_FORMAT } from '../contract-trace.ts';
import type { LevelName } from '../../sim/levels/level.ts';
import type { StepRecord } from '../../sim/levels/records.ts';
import { stepLines } from '../../sim/levels/vocabulary.ts';
import { replayCommand } from '../trace-execution.ts';
import { type Trace, TraceFormatError, parseTrace } from '../trace.ts';

/** One step of any trace kind: its records, and their lines (through the level's vocabulary). */
export interface ReadableStep {
  readonly action: string;
  /** The engine's phase; null for kinds without phases. */
  readonly phase: 'faults' | 'liveness' | null;
  readonly notes: readonly string[];
  /** The action as recorded (sim/levels/records.ts). */
  readonly actionRecord: StepRecord;
  /** The observations as recorded, one for each of `notes`. */
  readonly observations: readonly StepRecord[];
}

/** The property a trace violates, with what it says and where it comes from. */
export interface ReadableVerdict {
  readonly property: string;
  /** `safety`, `liveness`, or `contract` for the EventStore contract. */
  readonly kind: string;
  readonly statement: string;
  /** The seed passage, specification sentence or reason behind it. */
  readonly source: string;
  readonly explanation: string;
  /** 0-based index into the steps of the step during which it was seen; null when after the last step. */
  readonly step: number | null;
  /** True for a note: what the trace shows is permitted by its revision, reported, never a failure. */
  readonly note?: boolean;
  /** The property's severity (properties/severity.ts), when the trace names a simulator property. */
  readonly severity?: Severity;
  /** Set when a client's own fault triggered it: "the client broke MUST NOT … at step k", and it fails nothing. */
  readonly triggeredBy?: string;
  /** How it happened (sim/signature.ts): what tells it from the property's other counterexamples. */
  readonly signature?: string;
  /**
   * The searched properties the run did not check, as its trace records them (Trace.unchecked): a fuzz makes a run
   * again without the properties that ended it, so that every property a run violates is found (sim/search/fuzz-search.ts).
   */
  readonly unchecked?: readonly string[];
}

/** How the trace kinds differ where the renderers care: which participants, which notes. */
export type TraceKindName = 'simulation' | 'store-contract';

/** A trace of any kind, as the renderers read it. */
export interface ReadableTrace {
  readonly kind: TraceKindName;
  /** What ran: a target name, or the store module checked. */
  readonly target: string;
  readonly seed: string;
  /** Simulated clients (participants of a simulation trace); 0 for other kinds. */
  readonly clients: number;
  /** The level the trace was made at (sim/levels/level.ts); absent or null: the server level. */
  readonly level?: LevelName | null;
  readonly steps: readonly ReadableStep[];
  /** Null when the trace records that everything held. */
  readonly verdict: ReadableVerdict | null;
  /** The command that replays the trace from `path`. */
  readonly replay: string;
  readonly shrink: { readonly originalLength: number; readonly shrunkLength: number } | null;
}

/** Quotes a command-line argument for a POSIX shell when it needs it. */
export function quoteArgument(argument: string): string {
  return /^[\w./:@=+-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

/** The verdict's property as the renderers describe it: its kind, statement, source and severity. */
function describedProperty(name: string): { readonly kind: string; readonly statement: string; readonly source: string; readonly severity: Severity } | undefined {
  const property = [...PROPERTIES, ...CLIENT_PROPERTIES].find((candidate) => candidate.name === name);
  if (property !== undefined) return { kind: property.kind, statement: property.statement, source: renderSource(property.source), severity: property.severity };
  const contract = STORE_PROPERTIES.find((candidate) => candidate.name === name);
  return contract === undefined ? undefined : { kind: 'contract', statement: contract.statement, source: contract.why, severity: contract.severity };
}

/** A trace of any level (fuzz, replay, script, shrink, check-store's two phases) as the renderers read it. */
export function readableFromTrace(trace: Trace, path: string): ReadableTrace {
  const faults = trace.steps.filter((step) => step.phase === 'faults').length;
  const verdict = trace.verdict;
  const property = verdict === null ? undefined : describedProperty(verdict.property);
  const unchecked = trace.unchecked ?? [];
  return {
    // The store level's notes name sessions, store calls and replays: its diagram has a lane per session and the store.
    kind: trace.level === 'store' ? 'store-contract' : 'simulation',
    target: trace.target,
    seed: trace.seed,
    // The client level runs one client, whatever the config says.
    clients: trace.level === 'store' ? 0 : trace.level === 'client' ? 1 : trace.config.clients,
    level: trace.level ?? null,
    steps: trace.steps.map((step) => ({ ...stepLines(step, trace.level), actionRecord: step.action, observations: step.observations })),
    verdict:
      verdict === null
        ? null
        : {
            property: verdict.property,
            kind: property?.kind ?? 'safety',
            statement: property?.statement ?? '',
            source: property?.source ?? '',
            explanation: verdict.explanation,
            // A violation seen in the liveness phase carries the fault-phase step count: it belongs after the last step.
            step: verdict.step < faults && verdict.step < trace.steps.length ? verdict.step : null,
            ...(property !== undefined && property.severity === 'note' ? { note: true } : {}),
            ...(property === undefined ? {} : { severity: property.severity }),
            ...(verdict.triggeredBy === undefined ? {} : { triggeredBy: describeClientFault(verdict.triggeredBy) }),
            ...(verdict.signature === undefined ? {} : { signature: verdict.signature }),
            // A run made again without the properties that ended it says which.
            ...(unchecked.length > 0 ? { unchecked } : {}),
          },
    // A trace is data: when its target runs a command or a module, the replay command names it (cli/trace-target.ts).
    replay: replayCommand(path, trace.target),
    shrink: trace.shrink === null ? null : { originalLength: trace.shrink.originalLength, shrunkLength: trace.shrink.shrunkLength },
  };
}

/** The trace formats `render` reads, by the `format` field of the file: the one format, and check-store's older contract traces (read as store-level traces). */
const TRACE_KINDS: Readonly<Record<string, (text: string, path: string) => ReadableTrace>> = {
  'resumecheck-trace': (text, path) => readableFromTrace(parseTrace(text, path), path),
  [CONTRACT_TRACE_FORMAT]: (text, path) => readableFromTrace(parseTrace(text, path), path),
};

/** Reads a trace file of any kind. Throws {@link TraceFormatError} (bad input, one line) on anything off. */
export function readReadableTrace(path: string): ReadableTrace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TraceFormatError(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let format: unknown;
  try {
    format = (JSON.parse(text) as Record<string, unknown> | null)?.['format'];
  } catch {
    throw new TraceFormatError(`${path}: not JSON`);
  }
  const read = typeof format === 'string' && Object.hasOwn(TRACE_KINDS, format) ? TRACE_KINDS[format]! : null;
  if (read === null) throw new TraceFormatError(`${path}: not a trace resumecheck renders (format ${JSON.stringify(format ?? null)}; known: ${Object.keys(TRACE_KINDS).join(', ')})`);
  return read(text, path);
}

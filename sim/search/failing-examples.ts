// The failing-example database: stored traces (traces/corpus/, and the --out directory's earlier findings)
// replayed before a fuzz searches, so a counterexample that still fails is reported as a regression with its
// file, and its property is not searched out and shrunk all over again.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PropertyName } from '../../properties/names.ts';
import type { Target } from '../../targets/target.ts';
import { CONTRACT_TRACE_FORMAT } from '../../traces/contract-trace.ts';
import { type Trace, TraceFormatError, parseTrace } from '../../traces/trace.ts';
import { traceExecution } from '../../traces/trace-execution.ts';
import { sequenceChoices } from '../choices.ts';
import { runSimulation } from '../engine.ts';
import { findingKey } from '../signature.ts';
import type { Violation } from '../world.ts';

/** Stored traces read from one directory, at the most: a bound on the time replaying takes. */
export const EXAMPLES_PER_DIRECTORY_MAX = 2_000;

/** A stored trace of the target being fuzzed. */
export interface StoredExample {
  readonly file: string;
  readonly trace: Trace;
}

/** A file that is no usable trace; skipped and reported, never fatal (an out directory may hold anything). */
export interface SkippedExample {
  readonly file: string;
  readonly reason: string;
}

/** What a stored trace does today. */
export interface ExampleReplay {
  readonly file: string;
  /** The property it recorded as violated, or null for a trace recorded as holding. */
  readonly recorded: PropertyName | null;
  /** What it violates now, or null. */
  readonly violation: Violation | null;
}


/** What the stored traces of a set of directories hold for one target. */
export interface LoadedExamples {
  /** The target's traces, to replay. */
  readonly examples: StoredExample[];
  /** Files that are no usable trace. */
  readonly skipped: SkippedExample[];
  /**
   * check-store's contract traces (of the store level, or in the format from before it: they share traces/found/):
   * not for a fuzz of the module inside the SDK transport, and not worth a line each.
   */
  readonly contractTraces: number;
  /**
   * Traces of another target whose name would execute something (serve:CMD, module:PATH): never run, since a trace
   * is data and only the command line chooses what runs; counted so that the fuzz can say so.
   */
  readonly executingElsewhere: string[];
}

function readStored(file: string): { trace: Trace } | { contract: true } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TraceFormatError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  try {
    if ((JSON.parse(text) as { format?: unknown } | null)?.format === CONTRACT_TRACE_FORMAT) return { contract: true };
  } catch {
    // Not JSON: parseTrace says so.
  }
  const trace = parseTrace(text, file);
  return trace.level === 'store' ? { contract: true } : { trace };
}

/**
 * The traces of `targetName` in `directories` (missing directories are skipped), each file once, in name order.
 */
export function loadExamples(directories: readonly string[], targetName: string): LoadedExamples {
  const examples: StoredExample[] = [];
  const skipped: SkippedExample[] = [];
  const executingElsewhere: string[] = [];
  let contractTraces = 0;
  const seen = new Set<string>();
  for (const directory of directories) {
    let names: string[];
    try {
      names = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
    } catch {
      continue;
    }
    for (const name of names.slice(0, EXAMPLES_PER_DIRECTORY_MAX)) {
      const file = join(directory, name);
      if (seen.has(file)) continue;
      seen.add(file);
      try {
        const stored = readStored(file);
        if ('contract' in stored) {
          contractTraces += 1;
          continue;
        }
        const { trace } = stored;
        if (trace.target === targetName) examples.push({ file, trace });
        else if (traceExecution(trace.target) !== null) executingElsewhere.push(file);
      } catch (error) {
        skipped.push({ file, reason: (error as Error).message });
      }
    }
  }
  return { examples, skipped, contractTraces, executingElsewhere };
}

/** Replays each example on `target` with the config and properties it recorded. */
export async function replayExamples(target: Target, examples: readonly StoredExample[]): Promise<ExampleReplay[]> {
  const replays: ExampleReplay[] = [];
  for (const { file, trace } of examples) {
    const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), trace.properties === null ? {} : { properties: trace.properties });
    replays.push({ file, recorded: trace.verdict?.property ?? null, violation: result.violation });
  }
  return replays;
}

/**
 * The still-failing replays by the finding they are now (sim/signature.ts's findingKey: the property they violate
 * and how): the first file (in order) for each.
 */
export function regressionsByKey(replays: readonly ExampleReplay[]): Map<string, ExampleReplay & { readonly violation: Violation }> {
  const byKey = new Map<string, ExampleReplay & { readonly violation: Violation }>();
  for (const replay of replays) {
    const violation = replay.violation;
    if (violation !== null && !byKey.has(findingKey(violation))) byKey.set(findingKey(violation), { ...replay, violation });
  }
  return byKey;
}

// `resumecheck migrate-traces PATH...`: rewrites traces of format version 1, whose steps were printed lines, as
// version 2, whose steps are records (sim/levels/records.ts), by replaying their choices in process. A version-2 trace
// whose steps are all text records (a level that recorded its lines as text, as the client and store levels did before
// they had vocabularies) is rewritten the same way. A rewrite is kept only when the replay reads exactly as the
// recorded lines and gives the recorded verdict, so no trace changes what it shows (with --accept-replay: when it
// gives the recorded verdict at the same step, the trace then showing what its choices do at this version). A trace
// whose target runs code it names (serve:, module:) or reaches a server (url:) is left as it is and said so: a trace
// is data, and real time decides what such a run does. Traces of text records still read and render (as their
// lines); this only makes their charts whole.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runSimulation } from '../sim/engine.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { type LevelName, levelOf } from '../sim/levels/level.ts';
import { TEXT_RECORD } from '../sim/levels/records.ts';
import { stepLines } from '../sim/levels/vocabulary.ts';
import { writeFileAtomically } from '../traces/store.ts';
import { TRACE_FORMAT_VERSION, type Trace, TraceFormatError, parseTrace, serializeTrace } from '../traces/trace.ts';
import { traceExecution } from '../traces/trace-execution.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { requireTarget } from './require-target.ts';
import { UsageError } from './usage-error.ts';

/** What became of one file. */
type Outcome = 'rewritten' | 'current' | 'kept' | 'differs';

/** The trace files a path names: the file itself, or every `.json` file under a directory that holds a trace. */
function traceFiles(path: string): { files: string[]; explicit: boolean } {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    throw new UsageError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  if (!stat.isDirectory()) return { files: [path], explicit: true };
  const files: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((left, right) => left.name.localeCompare(right.name))) {
      const full = join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(path);
  return { files, explicit: false };
}

/** The format fields of a JSON file, or null when it is not a trace of the one format. */
function formatOf(text: string): { readonly version: unknown } | null {
  try {
    const data = JSON.parse(text) as Record<string, unknown> | null;
    return data !== null && typeof data === 'object' && data['format'] === 'resumecheck-trace' ? { version: data['formatVersion'] } : null;
  } catch {
    return null;
  }
}

/** The first place where a replay's lines (read at `level`) differ from the recorded ones, or null when they read the same. */
function firstDifference(trace: Trace, replayed: Trace['steps'], level: LevelName | undefined): string | null {
  if (replayed.length !== trace.steps.length) return `${replayed.length} steps, the trace recorded ${trace.steps.length}`;
  for (let index = 0; index < replayed.length; index += 1) {
    const got = stepLines(replayed[index]!, level);
    const recorded = stepLines(trace.steps[index]!, trace.level);
    const lines = (lines: typeof got) => [lines.action, ...lines.notes].join('\n');
    if (lines(got) !== lines(recorded)) return `step ${index + 1} reads otherwise`;
  }
  return null;
}

/** True when a trace has steps and each holds only text records: its lines, not yet records of its level. */
function textOnly(trace: Trace): boolean {
  return trace.steps.length > 0 && trace.steps.every((step) => [step.action, ...step.observations].every((record) => record.kind === TEXT_RECORD));
}

async function migrate(file: string, explicit: boolean, acceptReplay: boolean, io: Io): Promise<Outcome | null> {
  const text = readFileSync(file, 'utf8');
  const format = formatOf(text);
  if (format === null) {
    if (explicit) throw new TraceFormatError(`${file}: not a trace of format resumecheck-trace`);
    return null;
  }
  const trace = parseTrace(text, file);
  if (format.version === TRACE_FORMAT_VERSION && !textOnly(trace)) return 'current';
  const execution = traceExecution(trace.target);
  if (execution !== null || trace.target.startsWith('url:')) {
    io.out(`kept ${file}: its target ${execution === null ? 'is a server over the wire' : `runs ${execution.kind === 'command' ? 'a command' : 'a module'} the trace names`}; its steps stay the lines they were`);
    return 'kept';
  }
  const target = await requireTarget(trace.target, trace.level);
  const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), { record: true, ...(trace.properties === null ? {} : { properties: trace.properties }) });
  const steps = result.trace ?? [];
  // The level the replay ran at, which a trace written before traces named their level (a client target's) lacks.
  const level = levelOf(target)?.name ?? trace.level;
  const verdictMoved = (result.violation?.property ?? null) !== (trace.verdict?.property ?? null) || (result.violation?.step ?? null) !== (trace.verdict?.step ?? null);
  if (verdictMoved) {
    io.out(`kept ${file}: its replay gives ${result.violation?.property ?? 'no violation'} at step ${result.violation?.step ?? '-'}, the trace recorded ${trace.verdict?.property ?? 'none'} at step ${trace.verdict?.step ?? '-'}; left as it was`);
    return 'differs';
  }
  const difference = firstDifference(trace, steps, level);
  if (difference !== null && !acceptReplay) {
    io.out(`kept ${file}: ${difference}; left as it was (--accept-replay rewrites it as its replay reads, the same verdict)`);
    return 'differs';
  }
  // The level goes where a trace written now has it, after the version.
  const { format: _format, formatVersion: _version, resumecheckVersion, ...rest } = trace;
  writeFileAtomically(file, serializeTrace({ format: trace.format, formatVersion: TRACE_FORMAT_VERSION, resumecheckVersion, ...(level === undefined ? {} : { level }), ...rest, steps }));
  io.out(difference === null ? `rewrote ${file}` : `rewrote ${file} as its replay reads (${difference}; the same verdict)`);
  return 'rewritten';
}

/** Runs `resumecheck migrate-traces`: exit 0 when every trace of text records was rewritten or left for its target, 1 when a replay read otherwise. */
export async function runMigrateTraces({ values, positionals }: ParsedArgs, io: Io): Promise<number> {
  if (positionals.length === 0) throw new UsageError('migrate-traces needs a trace FILE or a DIRECTORY');
  const counts: Record<Outcome, number> = { rewritten: 0, current: 0, kept: 0, differs: 0 };
  for (const path of positionals) {
    const { files, explicit } = traceFiles(path);
    for (const file of files) {
      const outcome = await migrate(file, explicit, values['accept-replay'] === true, io);
      if (outcome !== null) counts[outcome] += 1;
    }
  }
  io.out(`${counts.rewritten} rewritten, ${counts.current} already version ${TRACE_FORMAT_VERSION}, ${counts.kept} kept for their targets, ${counts.differs} kept because their replay reads otherwise`);
  return counts.differs === 0 ? 0 : 1;
}

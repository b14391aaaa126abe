// `resumecheck shrink FILE [--target T] [--seed S]`: minimises a trace of any level (check-store's contract traces
// included) or a hand-written scenario while the same property still fails (the one shrinker, sim/shrink/shrink.ts), and
// writes the result next to it: a trace `X.json` gives `X.shrunk.json`, a scenario `X.txt` gives the scenario
// `X.shrunk.txt`, one action a line.

import { faultActions } from '../sim/levels/vocabulary.ts';
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { PropertyName } from '../properties/names.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { DEFAULT_CONFIG, type SimConfig, resolveConfig } from '../sim/config.ts';
import { type ChoiceSource, runSimulation } from '../sim/engine.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { ScriptError, parseScript, scriptChoices } from '../sim/shrink/script.ts';
import { DEFAULT_SHRINK_BOUNDS, shrinkChoices } from '../sim/shrink/shrink.ts';
import type { Target } from '../targets/target.ts';
import { writeFileAtomically } from '../traces/store.ts';
import { quoteArgument, readableFromTrace } from '../traces/render/readable.ts';
import { renderText } from '../traces/render/text.ts';
import { type Trace, parseTrace, serializeTrace } from '../traces/trace.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { requireTarget } from './require-target.ts';
import { checkTraceTarget } from './trace-target.ts';
import { UsageError } from './usage-error.ts';


/** What is shrunk: a run (target, config, choices), and how the result is written back. */
interface Input {
  readonly target: Target;
  readonly config: SimConfig;
  readonly properties: readonly PropertyName[] | null;
  readonly choices: ChoiceSource;
  readonly kind: 'trace' | 'scenario';
}

async function readInput(file: string, text: string, targetName: string | undefined, seed: string | undefined, trust: { readonly allowed: boolean; readonly io: Io }): Promise<Input> {
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: a scenario, one action a line.
  }
  if (json !== undefined) {
    if (seed !== undefined) throw new UsageError('--seed is for scenarios: a trace records its own config');
    const trace: Trace = parseTrace(text, file);
    if (targetName === undefined) {
      // Shrinking runs in process: a server over the wire is shrunk by the fuzz that found it.
      if (trace.target.startsWith('serve:') || trace.target.startsWith('serve-node:') || trace.target.startsWith('url:')) {
        throw new UsageError(`${file} was found over the wire (${trace.target}); shrink runs in process: give --target T to shrink it on a built-in target (fuzz --serve/--serve-node/--url shrinks what it finds)`);
      }
      // A module the trace names is imported only when the user names it too, or opts in.
      checkTraceTarget(file, trace.target, trust);
    }
    return { target: await requireTarget(targetName ?? trace.target, trace.level), config: trace.config, properties: trace.properties, choices: sequenceChoices(trace.choices), kind: 'trace' };
  }
  if (targetName === undefined) throw new UsageError('--target is required for a scenario; `resumecheck targets` lists them');
  const chosen = seed ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(chosen)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const script = parseScript(text);
  if (script.length === 0) throw new UsageError(`${file}: no action in the scenario (one action description a line)`);
  return { target: await requireTarget(targetName), config: resolveConfig({ seed: chosen }), properties: null, choices: scriptChoices(script), kind: 'scenario' };
}

/** Where the result goes: beside the input, `.shrunk` before the extension. */
export function shrunkPath(file: string, kind: Input['kind']): string {
  const extension = extname(file);
  const stem = basename(file, extension).replace(/\.shrunk$/, '');
  return join(dirname(file), `${stem}.shrunk${kind === 'trace' ? '.json' : extension === '' ? '.txt' : extension}`);
}

/** A trace's fault-phase actions as a scenario file (the liveness phase is the simulator's own). */
export function scenarioText(trace: Trace, from: string): string {
  const actions = faultActions(trace.steps, trace.level);
  const header = [
    `# shrunk by resumecheck shrink from ${from}: ${trace.shrink?.originalLength ?? actions.length} to ${actions.length} steps`,
    `# violates ${trace.verdict?.property ?? 'nothing'} on ${trace.target} (seed ${trace.config.seed}); the liveness phase follows the last step`,
  ];
  return `${[...header, ...actions].join('\n')}\n`;
}

/** Shrinks FILE; exit 1 when it violates a property (the shrunk result written), 0 when it holds, 2 on bad input. */
export async function runShrink({ values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const file = positionals[0];
  if (file === undefined) throw new UsageError('shrink needs a FILE: a trace, or a scenario with one action a line');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const input = await readInput(file, text, values.target as string | undefined, values.seed as string | undefined, { allowed: values['allow-trace-command'] === true, io });
  const only = input.properties === null ? {} : { properties: input.properties };
  let result;
  try {
    result = await runSimulation(input.target, input.config, input.choices, only);
  } catch (error) {
    if (error instanceof ScriptError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
  if (result.violation === null) {
    io.out(`✓ ${file}: no violation on ${input.target.name}; nothing to shrink`);
    return 0;
  }
  const property = result.violation.property;
  // The mechanism it fails by now is kept, as a fuzz keeps it (sim/signature.ts).
  const signature = result.violation.signature;
  const shrink = await shrinkChoices(input.target, input.config, result.choices, property, DEFAULT_SHRINK_BOUNDS, { ...only, ...(signature === undefined ? {} : { signature }) });
  const trace = await recordTrace(input.target, input.config, shrink.choices, shrink, input.properties);
  const out = shrunkPath(file, input.kind);
  try {
    writeFileAtomically(out, input.kind === 'trace' ? serializeTrace(trace) : scenarioText(trace, basename(file)));
  } catch (error) {
    throw new UsageError(`${out}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? 'unwritable'})`);
  }
  io.out(`shrunk ${file} from ${result.choices.length} to ${trace.choices.length} steps in ${shrink.evaluations} runs; ${property} still fails on ${input.target.name}`);
  io.out('');
  const printed = input.kind === 'trace' ? { written: out, replay: true } : { replay: false };
  for (const line of renderText(readableFromTrace(trace, out), printed)) io.out(line);
  if (input.kind === 'scenario') {
    io.out(`scenario written: ${out}`);
    io.out(`run it:           npx resumecheck script ${quoteArgument(out)} --target ${quoteArgument(input.target.name)}${input.config.seed === DEFAULT_CONFIG.seed ? '' : ` --seed ${input.config.seed}`}`);
  }
  return 1;
}

// `resumecheck script FILE`: runs a hand-written scenario (one action description a line, as replay prints them)
// against a target, then the liveness phase; a violation is printed and written as a trace.

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DEFAULT_CONFIG, resolveConfig } from '../sim/config.ts';
import { checkProtocol, parseProtocol } from './protocol-option.ts';
import { runSimulation } from '../sim/engine.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { ScriptError, parseScript, scriptChoices } from '../sim/shrink/script.ts';
import { writeTrace } from '../traces/store.ts';
import { renderSteps } from '../traces/trace.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { DEFAULT_OUT, checkOutDir } from './output-paths.ts';
import { printViolation } from './print-violation.ts';
import { requireTarget } from './require-target.ts';
import { findingFails } from '../properties/finding-weight.ts';
import { strictnessOf } from './parse-options.ts';
import { UsageError } from './usage-error.ts';

/** Runs `resumecheck script`. */
export async function runScript({ values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const file = positionals[0];
  if (file === undefined) throw new UsageError('script needs a FILE of action descriptions, one a line');
  const out = (values.out as string | undefined) ?? DEFAULT_OUT;
  checkOutDir(out, '--out');
  const protocol = parseProtocol(values.protocol);
  strictnessOf(values);
  const target = await requireTarget(values.target as string | undefined);
  checkProtocol(protocol, target);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  // One action a line, as `resumecheck replay` prints them (the step number may stay); # starts a comment.
  const script = parseScript(text);
  const seed = (values.seed as string | undefined) ?? DEFAULT_CONFIG.seed;
  const config = resolveConfig({ seed, ...(protocol === undefined ? {} : { protocol }), ...(values['version-faults'] === true ? { versionFaults: true } : {}) });
  let result;
  try {
    result = await runSimulation(target, config, scriptChoices(script));
  } catch (error) {
    if (error instanceof ScriptError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
  const trace = await recordTrace(target, config, result.choices, null);
  if (trace.verdict === null) {
    if (values.json === true) io.out(JSON.stringify(jsonEnvelope('script', { file, target: target.name, seed }, sharedWallMs() - startedMs, { file, target: target.name, steps: trace.choices.length, violation: null })));
    else {
      for (const line of renderSteps(trace.steps, trace.level ?? null)) io.out(line);
      io.out(`✓ ${file}: no violation on ${target.name} (${trace.choices.length} steps and the liveness phase)`);
    }
    return 0;
  }
  const written = writeTrace(out, trace);
  const path = relative(process.cwd(), written.path) || written.path;
  if (values.json === true) {
    io.out(JSON.stringify(jsonEnvelope('script', { file, target: target.name, seed }, sharedWallMs() - startedMs, { file, target: target.name, steps: trace.choices.length, violation: trace.verdict, trace: path })));
  }
  else printViolation(io, trace, path);
  // Exit 1 only when the finding fails at the --strict level (a note, or one the client's own fault triggered, never).
  return findingFails(trace.verdict, strictnessOf(values)) ? 1 : 0;
}

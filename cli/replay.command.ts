// `resumecheck replay FILE`: runs a trace's choices again on its target (or another) and says whether the recorded
// violation reproduces.

import { runSimulation } from '../sim/engine.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { readTrace } from '../traces/store.ts';
import type { Trace } from '../traces/trace.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { printViolation } from './print-violation.ts';
import { requireTarget } from './require-target.ts';
import { UsageError } from './usage-error.ts';

/** Runs `resumecheck replay`. */
export async function runReplay({ values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const file = positionals[0];
  if (file === undefined) throw new UsageError('replay needs a trace FILE');
  const trace = readTrace(file);
  const target = await requireTarget((values.target as string | undefined) ?? trace.target);
  const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
    record: true,
    ...(trace.properties === null ? {} : { properties: trace.properties }),
  });
  const replayed: Trace = { ...trace, target: target.name, steps: result.trace ?? [], verdict: result.violation };
  const expected = trace.verdict?.property ?? null;
  const got = result.violation?.property ?? null;
  if (values.json === true) {
    io.out(JSON.stringify(jsonEnvelope('replay', { file, target: target.name }, sharedWallMs() - startedMs, { file, target: target.name, expected, violation: result.violation })));
  } else if (got === null) {
    io.out(`✓ ${file}: no violation on ${target.name}${expected === null ? '' : ` (the trace recorded ${expected}: it now holds)`}`);
  } else {
    io.out(got === expected ? `reproduced: ${got} on ${target.name}` : `a different violation on ${target.name}: ${got} (the trace recorded ${String(expected)})`);
    io.out('');
    printViolation(io, replayed, null);
  }
  return got === null ? 0 : 1;
}

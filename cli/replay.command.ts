// `resumecheck replay FILE`: runs a trace's choices again on its target (or another, or a server over the wire), at
// the level the trace was made at, and says whether the recorded violation reproduces; over the wire, how often in
// --tries re-runs.

import { attributeFinding } from '../sim/shrink/attribution.ts';
import { runSimulation } from '../sim/engine.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { readTrace } from '../traces/store.ts';
import type { Trace } from '../traces/trace.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { WireTarget } from '../targets/wire/wire.target.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { chargedLine, printViolation } from './print-violation.ts';
import { requireTarget } from './require-target.ts';
import { findingFails, notFailingWhy } from '../properties/finding-weight.ts';
import type { Strictness } from '../properties/severity.ts';
import type { Violation } from '../sim/world.ts';
import { checkProtocol, parseProtocol } from './protocol-option.ts';
import { strictnessOf } from './parse-options.ts';
import { checkTraceTarget } from './trace-target.ts';
import { UsageError } from './usage-error.ts';
import { asUsageError, parseTries, prepareWire, replayTries, wireFlagsFromTargetName, wireReport, wireTargetFromFlags } from './wire-options.ts';

/** Runs `resumecheck replay`. */
export async function runReplay({ values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const file = positionals[0];
  if (file === undefined) throw new UsageError('replay needs a trace FILE');
  const trace = readTrace(file);
  const tries = parseTries(values['tries']);
  const flagged = values['url'] !== undefined || values['serve'] !== undefined || values['serve-node'] !== undefined;
  if (values['target'] !== undefined && flagged) throw new UsageError('give --target, or --url / --serve / --serve-node, not both');
  // A trace found over the wire names its server (serve:CMD, url:URL): without flags, replay reaches it again, but a
  // command (serve:CMD) or a module (module:PATH) it names runs only when the user names it or opts in.
  const named = flagged || values['target'] !== undefined;
  if (!named) checkTraceTarget(file, trace.target, { allowed: values['allow-trace-command'] === true, io });
  // The server the trace names, with the flags given that say how to reach it (--settle-ms, --echo-tool).
  const fromName = named ? null : wireFlagsFromTargetName(trace.target);
  let wireValues = fromName === null ? values : { ...fromName, 'settle-ms': values['settle-ms'], 'echo-tool': values['echo-tool'] };
  if (values['serve-node'] !== undefined) {
    // The nodes and balancer are the trace's: the command the user names runs on them.
    const fromTrace = wireFlagsFromTargetName(trace.target);
    if (fromTrace?.['serve-node'] === undefined) throw new UsageError(`--serve-node replays a trace found with --serve-node (target serve-node:CMD@N:BALANCER); ${file}'s target is ${JSON.stringify(trace.target)}`);
    wireValues = { ...values, nodes: fromTrace.nodes as string, balancer: fromTrace.balancer as string };
  }
  await using wire = await wireTargetFromFlags(wireValues);
  if (wire === null && tries !== 1) throw new UsageError('--tries goes with --url or --serve: an in-process replay is deterministic');
  const strictness = strictnessOf(values);
  if (wire !== null) return await replayOverTheWire(wire, file, trace, tries, values['json'] === true, strictness, io, startedMs);
  const protocol = parseProtocol(values['protocol']);
  const target = await requireTarget((values['target'] as string | undefined) ?? trace.target, trace.level);
  // The trace's own protocol (its config), unless --protocol asks for another.
  const config = protocol === undefined ? trace.config : { ...trace.config, protocol };
  checkProtocol(config.protocol, target);
  const result = await runSimulation(target, config, sequenceChoices(trace.choices), {
    record: true,
    ...(trace.properties === null ? {} : { properties: trace.properties }),
  });
  const replayed: Trace = { ...trace, config, target: target.name, steps: result.trace ?? [], verdict: result.violation };
  const expected = trace.verdict?.property ?? null;
  const got = result.violation?.property ?? null;
  // On a target assembled from components (an SDK target), the component the violation is charged to (by replays).
  const attribution = result.violation === null ? null : await attributeFinding(target, { config, choices: trace.choices, verdict: result.violation });
  if (values['json'] === true) {
    io.out(JSON.stringify(jsonEnvelope('replay', { file, target: target.name }, sharedWallMs() - startedMs, { file, target: target.name, expected, violation: result.violation, component: attribution })));
  } else if (got === null) {
    io.out(`✓ ${file}: no violation on ${target.name}${expected === null ? '' : ` (the trace recorded ${expected}: it now holds)`}`);
  } else {
    // The same property by another mechanism (its signature, when the trace recorded one) is said so, not hidden.
    const recordedHow = trace.verdict?.signature;
    const otherHow = got === expected && recordedHow !== undefined && result.violation!.signature !== recordedHow;
    io.out(
      got !== expected
        ? `a different violation on ${target.name}: ${got} (the trace recorded ${String(expected)})`
        : otherHow
          ? `reproduced: ${got} on ${target.name}, by another mechanism (${String(result.violation!.signature)}; the trace recorded ${recordedHow})`
          : `reproduced: ${got} on ${target.name}`,
    );
    const why = notFailingWhy(result.violation!, strictness);
    if (why !== null) io.out(`(${got} does not fail the replay: ${why})`);
    io.out('');
    printViolation(io, replayed, null);
    if (attribution !== null) io.out(chargedLine(attribution.charged, attribution.component, attribution.evidence));
  }
  return exitOf(result.violation, strictness);
}

/** Replays a trace against a server over the wire `tries` times and says how often its violation reproduced. */
async function replayOverTheWire(wire: WireTarget, file: string, trace: Trace, tries: number, json: boolean, strictness: Strictness, io: Io, startedMs: number): Promise<number> {
  const properties = await prepareWire(wire, trace.properties ?? undefined, trace.config.restartsMax > 0);
  // The trace's clients speak its revision: the server must serve that era (known once it was asked).
  checkProtocol(trace.config.protocol, wire);
  let outcome;
  try {
    outcome = await replayTries(wire, trace, tries, properties);
  } catch (error) {
    throw asUsageError(error);
  }
  const expected = trace.verdict?.property ?? null;
  const got = outcome.last.violation?.property ?? null;
  if (json) {
    const config = { file, target: wire.name, url: wire.url.href, tries, settleMs: wire.timing.quietMs };
    io.out(JSON.stringify(jsonEnvelope('replay', config, sharedWallMs() - startedMs, {
      file,
      target: wire.name,
      expected,
      tries,
      reproduced: outcome.reproduced,
      others: outcome.others,
      violation: outcome.last.violation,
      wire: { probe: wire.probe, echo: wire.echo, unsupported: wire.unsupported(), judged: properties ?? null, settles: { ...wire.stats } },
    })));
    return exitOf(outcome.last.violation, strictness);
  }
  const others = Object.entries(outcome.others).map(([name, count]) => `${name} ${count}×`).join(', ');
  io.out(`${expected === null ? 'the trace recorded no violation' : `${expected} reproduced in ${outcome.reproduced} of ${tries} tries`} on ${wire.name}${others === '' ? '' : `; other violations: ${others}`}`);
  for (const line of wireReport(wire, properties)) io.out(line);
  if (got !== null) {
    const why = notFailingWhy(outcome.last.violation!, strictness);
    if (why !== null) io.out(`(${got} does not fail the replay: ${why})`);
    io.out('');
    printViolation(io, { ...trace, target: wire.name, steps: outcome.last.trace ?? [], verdict: outcome.last.violation }, null);
  }
  return exitOf(outcome.last.violation, strictness);
}

/** Exit 1 only when the finding fails at the --strict level (a note, or one the client's own fault triggered, never). */
function exitOf(violation: Violation | null, strictness: Strictness): number {
  return violation === null || !findingFails(violation, strictness) ? 0 : 1;
}

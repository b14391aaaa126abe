// The over-the-wire options of fuzz and replay (`--url`, `--serve`, `--serve-node` with fuzz's `--nodes` and
// `--balancer`, `--allow-remote`, `--settle-ms`, replay's
// `--tries`; declared with their help in commands.ts): turning them into a wire target, what the report says about it,
// and replay's k tries.

import { isModernOnly } from '../properties/index.ts';
import type { PropertyName } from '../properties/names.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { runSimulation } from '../sim/engine.ts';
import type { ShrinkBounds } from '../sim/shrink/shrink.ts';
import { NEVER_JUDGED_OVER_THE_WIRE, NOT_JUDGED_THROUGH_ECHO, NOT_JUDGED_WITHOUT_PROBE, PARTLY_JUDGED_WITHOUT_PROBE, judgedProperties } from '../targets/wire/cooperation.ts';
import { WireFault, WireInputError } from '../targets/wire/wire-error.ts';
import type { WireTarget } from '../targets/wire/wire.target.ts';
import { TargetResolutionError, type WireDescription, resolveTarget, wireDescriptionOfName } from '../targets/resolve-target.ts';
import { BALANCER_NAMES, isBalancerName } from '../targets/multi-node/balancer.ts';
import { NODES_MAX } from '../targets/multi-node/topology.ts';
import type { Trace } from '../traces/trace.ts';
import { UsageError, parseWhole } from './usage-error.ts';

/** Shrinking over the wire: each evaluation is a run over sockets, so far fewer than in process. */
export const WIRE_SHRINK_BOUNDS: ShrinkBounds = { fastCheckEvaluationsMax: 60, passEvaluationsMax: 60 };
/** The most tries a replay makes. */
const TRIES_MAX = 1_000;

type WireValues = {
  url?: unknown;
  serve?: unknown;
  'serve-node'?: unknown;
  nodes?: unknown;
  balancer?: unknown;
  'allow-remote'?: unknown;
  'settle-ms'?: unknown;
  'echo-tool'?: unknown;
};

/** Nodes `--serve-node` starts unless --nodes says otherwise. */
const SERVE_NODES_DEFAULT = 2;

/** The description of the wire target the options ask for, or null when they name none (then --target is used). */
export function wireDescriptionFromFlags(values: WireValues): WireDescription | null {
  const url = typeof values.url === 'string' ? values.url : null;
  const serveNode = typeof values['serve-node'] === 'string' ? values['serve-node'] : null;
  if (serveNode !== null && values.serve !== undefined) throw new UsageError('give --serve "CMD" (one process) or --serve-node "CMD" (several nodes), not both');
  const serve = typeof values.serve === 'string' ? values.serve : serveNode;
  if (url === null && serve === null) {
    if (values['allow-remote'] === true || values['settle-ms'] !== undefined || values['echo-tool'] !== undefined) throw new UsageError('--allow-remote, --settle-ms and --echo-tool go with --url or --serve');
    return null;
  }
  const settleMs = typeof values['settle-ms'] === 'string' ? parseWhole(values['settle-ms'], '--settle-ms', 1, 10_000) : null;
  const allowRemote = values['allow-remote'] === true;
  const echoTool = typeof values['echo-tool'] === 'string' ? values['echo-tool'] : null;
  if (echoTool !== null && !/^[\x21-\x7e]{1,128}$/.test(echoTool)) throw new UsageError(`--echo-tool takes a tool name (1 to 128 visible characters), got ${JSON.stringify(echoTool)}`);
  if (serve === null) return { form: 'remote', url: url!, allowRemote, settleMs, echoTool };
  if (serveNode === null) return { form: 'served', command: serve, url, allowRemote, settleMs, echoTool };
  const count = typeof values.nodes === 'string' ? parseWhole(values.nodes, '--nodes', 1, NODES_MAX) : SERVE_NODES_DEFAULT;
  const balancer = typeof values.balancer === 'string' ? values.balancer : 'round-robin';
  if (!isBalancerName(balancer)) throw new UsageError(`--balancer takes one of ${BALANCER_NAMES.join(', ')}, got ${JSON.stringify(balancer)}`);
  return { form: 'served', command: serve, url, allowRemote, settleMs, echoTool, nodes: { count, balancer } };
}

/** The wire target the options ask for (built by the one resolver, not started), or null when they name none. */
export async function wireTargetFromFlags(values: WireValues): Promise<WireTarget | null> {
  const description = wireDescriptionFromFlags(values);
  if (description === null) return null;
  try {
    return await resolveTarget(description);
  } catch (error) {
    throw asUsageError(error);
  }
}

/**
 * The wire options a trace's target name stands for (`serve:CMD`, `url:URL`), so `replay FILE` of a trace found over
 * the wire reaches the same server without flags; null for any other target name.
 */
export function wireFlagsFromTargetName(name: string): WireValues | null {
  const description = wireDescriptionOfName(name);
  if (description === null) return null;
  if (description.form === 'remote') return { url: description.url };
  if (description.nodes === undefined) return { serve: description.command };
  return { 'serve-node': description.command, nodes: String(description.nodes.count), balancer: description.nodes.balancer };
}

/** A wire failure as the CLI's bad-input error (one line, exit 2); anything else unchanged. */
export function asUsageError(error: unknown): unknown {
  if (error instanceof WireInputError || error instanceof TargetResolutionError) return new UsageError(error.message);
  if (error instanceof WireFault) return new UsageError(`${error.message}; the run could not go on (its server was stopped)`);
  return error;
}

/** True for the failure of a server over the wire mid-run (it exited, it stopped answering): not the user's input. */
export function isServerFault(error: unknown): boolean {
  return error instanceof WireFault;
}

/**
 * Starts the server if needed and asks for its tools (and, when the runs will restart it, whether its sessions outlive a
 * restart); returns the properties to check on it.
 */
export async function prepareWire(target: WireTarget, requested: readonly PropertyName[] | undefined, restarts: boolean): Promise<PropertyName[] | undefined> {
  try {
    await target.prepare({ restarts });
  } catch (error) {
    await target.stop();
    throw asUsageError(error);
  }
  // On a server of the 2025 revisions alone the properties never judged over the wire (2026-07-28's) never apply.
  const modern = target.eras?.includes('modern') === true;
  if (target.probe === true && !modern) return requested === undefined ? undefined : [...requested];
  // A property of 2026-07-28 alone never applies on a server of the 2025 revisions alone: not listed as judged there.
  const judged = judgedProperties(requested, { probe: target.probe === true, echo: target.echo !== null }).filter((name) => modern || !isModernOnly(name));
  if (judged.length === 0) {
    await target.stop();
    throw new UsageError(
      target.probe === true
        ? `none of the properties asked for can be judged over the wire (${NEVER_JUDGED_OVER_THE_WIRE.map(({ name }) => name).join(', ')}: see the report)`
        : `${target.url.href} has no probe tools, and none of the properties asked for can be judged without them`,
    );
  }
  return judged;
}

/** What the report says of the server's tools: the probe tools, or an echo tool the calls are sent as, or neither. */
function toolsText(target: WireTarget): string {
  if (target.probe === true) return 'with the probe tools';
  if (target.echo === null) return 'without the probe tools (docs/probe-tools.md)';
  return `without the probe tools (docs/probe-tools.md); each call is sent as its tool ${JSON.stringify(target.echo.name)} with a marker in ${JSON.stringify(target.echo.argument)}, which the result echoes back, so a result is known wherever it arrives`;
}

/** The lines a fuzz or replay prints about a wire target: timing, what was not driven or judged, and why. */
export function wireReport(target: WireTarget, checked: readonly PropertyName[] | undefined): string[] {
  const { timing, stats } = target;
  const lines = [
    `over the wire: ${target.url.href}, ${toolsText(target)}; real time: after each operation it waits for every response head, for released tool steps to be taken, then ${timing.quietMs} ms with nothing arriving (at most ${timing.settleMsMax} ms)`,
    `  settles: ${stats.settles}, ${stats.settlesCutShort} cut short at the bound, ${Math.round(stats.settleMs)} ms waiting in all`,
  ];
  if (stats.cutShortFor.length > 0) lines.push(`  cut short waiting for: ${tallyText(stats.cutShortFor)}`);
  if (target.deployment !== null) {
    lines.push(
      `  nodes: ${target.deployment.count} processes of the command (${target.nodeUrls.map((node) => node.host).join(', ')}), each with its own $PORT and $RESUMECHECK_NODE (1 to N), behind resumecheck's ${target.deployment.balancer} balancer; a node crash kills its process (SIGKILL), its boot starts a new one on the same port, and "(node K)" says which answered`,
    );
  }
  if (target.sessionsOutliveRestart === true) {
    lines.push('  sessions outlive a restart: a session it named before a restart was served after one (asked before the first run), so a restart ends none of them, only the calls running in it');
  }
  for (const { kind, why } of target.unsupported()) lines.push(`  not driven: ${kind}: ${why}`);
  if (target.probe !== true && checked !== undefined) {
    lines.push(`  judged: ${checked.join(', ')}; every other property ${target.echo === null ? NOT_JUDGED_WITHOUT_PROBE : NOT_JUDGED_THROUGH_ECHO}`);
    for (const { name, judged, not } of PARTLY_JUDGED_WITHOUT_PROBE) {
      if (checked.includes(name)) lines.push(`  partly judged: ${name}: on ${judged}, not on ${not}`);
    }
  }
  if (target.eras?.includes('modern') === true) {
    lines.push(`  serves 2026-07-28${target.eras.includes('legacy') ? ' and the 2025 revisions' : ' only'} (asked before the first run)`);
    for (const { name, why } of NEVER_JUDGED_OVER_THE_WIRE) lines.push(`  not judged: ${name}: ${why}`);
  }
  return lines;
}

/** The number of tries replay's --tries asks for (default 1). */
export function parseTries(value: unknown): number {
  return typeof value === 'string' ? parseWhole(value, '--tries', 1, TRIES_MAX) : 1;
}

/** How often a trace's violation reproduced in `tries` re-runs of its choices against `target`. */
export interface TriesOutcome {
  readonly tries: number;
  /** Tries that violated the trace's property. */
  readonly reproduced: number;
  /** Tries that violated another property, by name. */
  readonly others: Readonly<Record<string, number>>;
  /** The last try that reproduced, recorded (or the last try, when none did). */
  readonly last: Awaited<ReturnType<typeof runSimulation>>;
}

/** Re-runs a trace's choices `tries` times (network timing is not ours to fix, so say how often it reproduced). */
export async function replayTries(target: WireTarget, trace: Trace, tries: number, properties: readonly PropertyName[] | undefined): Promise<TriesOutcome> {
  const expected = trace.verdict?.property ?? null;
  let reproduced = 0;
  const others: Record<string, number> = {};
  let last: TriesOutcome['last'] | null = null;
  let lastReproduced: TriesOutcome['last'] | null = null;
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
      record: true,
      ...(properties === undefined ? {} : { properties }),
    });
    last = result;
    const got = result.violation?.property ?? null;
    if (got !== null && got === expected) {
      reproduced += 1;
      lastReproduced = result;
    } else if (got !== null) others[got] = (others[got] ?? 0) + 1;
  }
  return { tries, reproduced, others, last: lastReproduced ?? last! };
}

/** The most distinct reasons the report lists for settles cut short. */
const CUT_SHORT_REASONS_SHOWN = 4;

/** `a (3×), b, and 2 more`: the texts by how often they occur, most first, ties in order of first occurrence. */
function tallyText(texts: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, CUT_SHORT_REASONS_SHOWN).map(([text, count]) => (count === 1 ? text : `${text} (${count}×)`));
  const more = sorted.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
